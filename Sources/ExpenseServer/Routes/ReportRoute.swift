import ExpenseCore
import ExpenseService
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/reports/{month}?today=`: the CLI's report JSON, byte for byte, with a strong ETag.
///
/// A plain Hummingbird route rather than a generated one: the generated code would decode and
/// re-encode the report, and the contract is the CLI's exact bytes. The document still
/// describes it and the tests validate its answers against the document.
struct ReportRoute: Sendable {
  let backend: any ExpenseBackend
  let cache: ReportCache
  let clock: ServerClock

  func respond(_ request: Request, month text: String) async throws -> Response {
    let month = try APIHandler.month(text, field: "month")
    let today =
      try request.uri.queryParameters["today"].map { try APIHandler.date(String($0), field: "today") }
      ?? clock.today()
    // Kept apart per ledger and user: two people's reports differ by their section states.
    let key = "\(backend.audience()) \(month) \(today)"
    // Read after the request arrived, so an entry stored under it holds every commit made before.
    let stamp = try await backend.currentStamp()
    var entry = cache.entry(key: key, stamp: stamp)
    if entry == nil {
      let json = try await backend.fromReplica { try $0.reportJSON(month: month, today: today) }
      entry = cache.store(key: key, stamp: stamp, json: json)
    }
    guard let entry else { throw APIProblem(status: .internalServerError, detail: "no report") }
    if let match = request.headers[.ifNoneMatch], ReportRoute.matches(match, etag: entry.etag) {
      return Response(status: .notModified, headers: [.eTag: entry.etag])
    }
    return Response(
      status: .ok, headers: [.contentType: "application/json", .eTag: entry.etag],
      body: .init(byteBuffer: entry.body))
  }

  /// If-None-Match: `*` or a list of ETags (weak ones compare by their opaque part, RFC 9110).
  static func matches(_ header: String, etag: String) -> Bool {
    header.split(separator: ",").contains { part in
      var tag = part.trimmingCharacters(in: .whitespaces)
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      return tag == "*" || tag == etag
    }
  }
}

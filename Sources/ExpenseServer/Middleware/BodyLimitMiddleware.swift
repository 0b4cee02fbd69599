import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// Bodies other than an import's are small JSON documents: at most 1 MiB is read (413 past
/// it). The import route streams its own body under its own limit (`ImportUploads`).
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
  static var jsonLimit: Int { 1 << 20 }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    if request.method == .get || request.method == .head || request.uri.path == "/v1/imports" {
      return try await next(request, context)
    }
    var request = request
    let body: ByteBuffer
    do {
      body = try await request.collectBody(upTo: Self.jsonLimit)
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw APIProblem(status: .contentTooLarge, detail: "the body is over 1 MiB", field: "body")
    }
    do {
      return try await next(request, context)
    } catch let error as ServerError {
      // Foundation's decoder reports a fraction where an integer belongs as unreadable JSON
      // with no coding path; the body is still here to say which field it was.
      guard case .dataCorrupted(let decoding)? = error.underlyingError as? DecodingError,
        decoding.codingPath.isEmpty, let field = Self.fractionalField(in: body)
      else { throw error }
      throw APIProblem.badRequest("'\(field)' must be an integer (minor units, never a fraction)", field: field)
    }
  }

  /// The first top-level field of a JSON object whose value is a number with a fraction.
  static func fractionalField(in body: ByteBuffer) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
      return nil
    }
    // A JSON `true` read back as a number would be 1: booleans are no fraction.
    for key in object.keys.sorted() where !(object[key] is Bool) {
      if let number = object[key] as? Double, number.rounded() != number { return key }
    }
    return nil
  }
}

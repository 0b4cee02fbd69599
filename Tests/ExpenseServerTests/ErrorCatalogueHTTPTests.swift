import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ExpenseServer

/// The cases of `Fixtures/errors/` that the HTTP API can meet too (those with an `http` file;
/// the format is in the folder's README), sent to the server: the status and the problem's
/// detail, and nothing imported. The folder is enumerated, so a new case is a new test.
@Suite struct ErrorCatalogueHTTPTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/errors")

  static let cases: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/http").path) }
      .sorted()
  }()

  static func read(_ name: String, _ file: String) -> String? {
    try? String(contentsOf: root.appendingPathComponent("\(name)/\(file)"), encoding: .utf8)
  }

  @Test func someCasesHaveAnHTTPPartAndEveryStatusHasARequest() throws {
    #expect(Self.cases.count >= 8, "\(Self.cases)")
    let all = (try? FileManager.default.contentsOfDirectory(atPath: Self.root.path)) ?? []
    for name in all where Self.read(name, "status") != nil {
      #expect(Self.cases.contains(name), "\(name): a 'status' without an 'http' request")
    }
  }

  @Test(arguments: cases) func theCaseAnswersAsCatalogued(_ name: String) async throws {
    let request = try #require(Self.read(name, "http")?.trimmingCharacters(in: .whitespacesAndNewlines))
    let words = request.split(separator: " ").map(String.init)
    try #require(words.count == 2 || words.count == 3, "\(name): 'http' is METHOD PATH [BODY-FILE]")
    let method = try #require(HTTPRequest.Method(words[0]), "\(name): unknown method \(words[0])")
    let uri = words[1]
    let statusText = try #require(Self.read(name, "status"), "\(name): an 'http' request without a 'status'")
    let status = try #require(Int(statusText.trimmingCharacters(in: .whitespacesAndNewlines)))
    let body = try words.count == 3 ? Data(contentsOf: Self.bodyFile(words[2], of: name)) : nil
    let expected = try #require(Self.expectedDetail(name), "\(name): no 'detail' nor 'stderr'")

    let harness = try ServerHarness()
    try await harness.run { client in
      var headers: HTTPFields = [.authorization: "Bearer \(harness.writeToken)"]
      if let file = words.count == 3 ? words[2] : nil {
        headers[.contentType] = file.hasSuffix(".json") ? "application/json" : "text/csv"
      }
      let response = try await client.client.execute(
        uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
      let reply = ServerHarness.Reply(
        status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
      #expect(reply.status == status, "\(name): \(reply.status), expected \(status): \(reply.text)")
      let problems = try OpenAPIContract.check(
        path: try ServerHarness.Client.template(for: uri), method: method.rawValue, status: reply.status,
        contentType: response.headers[.contentType], body: reply.body)
      #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "\n"))")
      let detail = reply.json["detail"]?.string ?? ""
      let matches = expected.prefix ? detail.hasPrefix(expected.text) : detail == expected.text
      #expect(matches, "\(name): detail\n\(detail)\nexpected\(expected.prefix ? " (prefix)" : "")\n\(expected.text)")
      // Nothing imported, nothing recorded.
      let imports = try await client.call(.get, "/v1/imports")
      #expect(imports.json["imports"]?.array?.isEmpty == true, "\(name): \(imports.text)")
    }
  }

  /// A body file of the case's folder, or `$FIXTURES/...` (a fixture of the repository).
  static func bodyFile(_ word: String, of name: String) -> URL {
    if word.hasPrefix("$FIXTURES/") {
      return root.deletingLastPathComponent().appendingPathComponent(String(word.dropFirst("$FIXTURES/".count)))
    }
    return root.appendingPathComponent("\(name)/\(word)")
  }

  /// The `detail` file, else the CLI's `stderr` without the program's name: the API says what
  /// the CLI says. A last line `...` makes it a prefix.
  static func expectedDetail(_ name: String) -> (text: String, prefix: Bool)? {
    let detailFile = read(name, "detail")
    guard var text = detailFile ?? read(name, "stderr") else { return nil }
    var prefix = false
    if text.hasSuffix("\n...\n") || text.hasSuffix("\n...") {
      text = String(text[..<text.range(of: "...", options: .backwards)!.lowerBound])
      prefix = true
    }
    if detailFile == nil, text.hasPrefix("expenses: ") { text.removeFirst("expenses: ".count) }
    if text.hasSuffix("\n") { text.removeLast() }
    return (text, prefix)
  }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ExpenseServer

/// `POST /v1/imports` refuses a row with bytes that are not UTF-8 in a UTF-8 file (its line and
/// column named), and keeps it with U+FFFD when asked (`replaceInvalid=true`), warning by line.
@Suite struct InvalidBytesImportTests {
  static let damaged: [UInt8] =
    Array("Date,Description,Amount\n2026-10-01,Café Central,-3.50\n2026-10-02,Caf".utf8) + [0xC3, 0xA9, 0xE4]
    + Array(",-4.20\n2026-10-03,Tea,-2.00\n".utf8)

  func post(_ client: ServerHarness.Client, _ query: String) async throws -> ServerHarness.Reply {
    var headers: HTTPFields = [.contentType: "text/csv"]
    headers[.authorization] = "Bearer \(client.harness.writeToken)"
    let response = try await client.client.execute(
      uri: "/v1/imports?file=bank.csv" + query, method: .post, headers: headers, body: ByteBuffer(bytes: Self.damaged))
    let reply = ServerHarness.Reply(
      status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    let problems = try OpenAPIContract.check(
      path: "/v1/imports", method: "POST", status: reply.status, contentType: response.headers[.contentType],
      body: reply.body)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    return reply
  }

  @Test func aDamagedRowIsRefusedOrKeptWithReplacementCharacters() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let refused = try await post(client, "")
      #expect(refused.status == 422, "\(refused.text)")
      #expect(refused.text.contains("invalid UTF-8 at byte 6 of the field (0xE4)"), "\(refused.text)")
      #expect(try harness.database.expenseCount(month: nil) == 0)
      let kept = try await post(client, "&replaceInvalid=true")
      #expect(kept.status == 201, "\(kept.text)")
      #expect(kept.json["new"]?.integer == 3)
      let warnings = kept.json["warnings"]?.array?.compactMap(\.string) ?? []
      #expect(warnings == ["line 3, column 2: invalid UTF-8 at byte 6 of the field (0xE4) replaced with U+FFFD"])
      let rows = try harness.database.expenses(month: nil, category: nil, limit: nil).map(\.description)
      #expect(rows.contains("Café\u{FFFD}"))
    }
  }
}

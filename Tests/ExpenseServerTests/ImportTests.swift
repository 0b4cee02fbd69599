import ExpenseStore
import Foundation
import HTTPTypes
import Testing

@testable import ExpenseServer

@Suite struct ImportTests {
  @Test func importListAndRemove() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let created = try await client.call(.post, "/v1/imports?file=bank.csv", csv: ServerHarness.csv(rows: 10))
      #expect(created.status == 201)
      #expect(created.json["new"]?.integer == 11)
      #expect(created.json["file"]?.string == "bank.csv")
      let id = try #require(created.json["importId"]?.integer)
      let list = try await client.call(.get, "/v1/imports", auth: .read)
      #expect(list.json["imports"]?.array?.first?["id"]?.integer == id)
      #expect(list.json["imports"]?.array?.first?["rows"]?.integer == 11)
      let removed = try await client.call(.delete, "/v1/imports/\(id)")
      #expect(removed.status == 200)
      #expect(removed.json["removed"]?.integer == 11)
      #expect(try harness.database.expenseCount(month: nil) == 0)
      #expect(try await client.call(.delete, "/v1/imports/\(id)").status == 404)
      // Nothing of the upload is left beside the database.
      let left = try FileManager.default.contentsOfDirectory(atPath: harness.directory.path)
      #expect(!left.contains { $0.hasPrefix(".expenses-upload") })
    }
  }

  @Test func anIdempotentReplayReturnsTheFirstAnswerWithoutImportingAgain() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let csv = ServerHarness.csv(rows: 5)
      let first = try await client.call(.post, "/v1/imports?file=a.csv", headers: [.idempotencyKey: "k-1"], csv: csv)
      #expect(first.status == 201)
      let records = try harness.database.imports().count
      let replay = try await client.call(.post, "/v1/imports?file=a.csv", headers: [.idempotencyKey: "k-1"], csv: csv)
      #expect(replay.status == 201)
      #expect(replay.json == first.json)
      #expect(try harness.database.imports().count == records)
      // Without the key the same file is imported again: every row a duplicate.
      let again = try await client.call(.post, "/v1/imports?file=a.csv", csv: csv)
      #expect(again.json["new"]?.integer == 0)
      #expect(again.json["duplicates"]?.integer == 6)
      // The same key with another request is refused.
      let other = try await client.call(
        .post, "/v1/imports?file=a.csv", headers: [.idempotencyKey: "k-1"], csv: ServerHarness.csv(rows: 6))
      #expect(other.status == 422)
      #expect(other.json["field"]?.string == "Idempotency-Key")
    }
  }

  @Test func previewWritesNothingAndRejectedRowsAreListed() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let preview = try await client.call(.post, "/v1/imports?preview=true", csv: ServerHarness.csv(rows: 3))
      #expect(preview.status == 200)
      #expect(preview.json["preview"]?.bool == true)
      #expect(preview.json["new"]?.integer == 4)
      #expect(try harness.database.expenseCount(month: nil) == 0)

      let bad = "Date,Description,Amount\n2026-10-01,Good,-1.00\n2026-10-02,Bad,abc\n2026-13-40,Worse,-2.00\n"
      let refused = try await client.call(.post, "/v1/imports", csv: bad)
      #expect(refused.status == 422)
      #expect(try harness.database.expenseCount(month: nil) == 0)
      let skipped = try await client.call(.post, "/v1/imports?skipInvalid=true", csv: bad)
      #expect(skipped.status == 201)
      #expect(skipped.json["new"]?.integer == 1)
      #expect(skipped.json["rejected"]?.integer == 2)
      let rows = skipped.json["rejectedRows"]?.array ?? []
      #expect(rows.compactMap { $0["line"]?.integer } == [3, 4])
      #expect(rows.allSatisfy { ($0["reason"]?.string ?? "").count > 5 })
      #expect(rows.first?["reason"]?.string?.hasPrefix("not an amount (column \"Amount\"); ") == true)
      #expect(rows.last?["reason"]?.string?.contains("(column \"Date\")") == true)
    }
  }

  @Test func optionsAreValidatedAndApplied() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let badEncoding = try await client.call(.post, "/v1/imports?encoding=klingon", csv: "a")
      #expect(badEncoding.status == 422)
      #expect(badEncoding.json["field"]?.string == "encoding")
      let badLines = try await client.call(.post, "/v1/imports?skipLines=many", csv: "a")
      #expect(badLines.status == 400)
      #expect(badLines.json["field"]?.string == "skipLines")
      let badCurrency = try await client.call(.post, "/v1/imports?currency=XYZ", csv: "a")
      #expect(badCurrency.status == 422)
      let semicolons = "Datum;Text;Betrag\n01.10.2026;Migros;-12,50\n"
      let applied = try await client.call(
        .post, "/v1/imports?delimiter=%3B&decimalMark=%2C&dateFormat=DD.MM.YYYY&currency=CHF&account=Card",
        csv: semicolons)
      #expect(applied.status == 201)
      let rows = try harness.database.expenses(month: nil, category: nil, limit: nil)
      #expect(rows.first?.amount.minor == -1250)
      #expect(rows.first?.amount.currency.code == "CHF")
      #expect(rows.first?.account == "Card")
      let media = try await client.call(.post, "/v1/imports", headers: [.contentType: "application/json"], json: "{}")
      #expect(media.status == 415)
    }
  }

  @Test func aBodyOverTheLimitIs413() async throws {
    let harness = try ServerHarness(uploadLimit: 1024)
    try await harness.run { client in
      let reply = try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 200))
      #expect(reply.status == 413)
      #expect(try harness.database.expenseCount(month: nil) == 0)
      let left = try FileManager.default.contentsOfDirectory(atPath: harness.directory.path)
      #expect(!left.contains { $0.hasPrefix(".expenses-upload") })
    }
  }
}

extension HTTPField.Name {
  static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}

@Suite struct BodyLimitTests {
  @Test func aJSONBodyOverOneMiBIs413() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let pattern = String(repeating: "x", count: 1 << 20)
      let reply = try await client.call(.put, "/v1/rules/1", json: #"{"pattern":"\#(pattern)","category":"A"}"#)
      #expect(reply.status == 413)
      #expect(try harness.database.rules().isEmpty)
    }
  }

  @Test func aSecondRequestWithARunningKeyIsRefused() {
    let uploads = ImportUploads(directory: ".")
    #expect(uploads.begin("token\u{0}key"))
    #expect(!uploads.begin("token\u{0}key"))
    uploads.end("token\u{0}key")
    #expect(uploads.begin("token\u{0}key"))
  }
}

/// A statement file uploaded under the content type a bank or browser gives it: the format is
/// told by the content.
@Suite struct StatementUploadTests {
  static let ofx = """
    OFXHEADER:100
    DATA:OFXSGML
    VERSION:102

    <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
    <BANKACCTFROM><BANKID>1<ACCTID>CHK-1<ACCTTYPE>CHECKING</BANKACCTFROM>
    <BANKTRANLIST>
    <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261003<TRNAMT>-4.50<FITID>A1<NAME>COFFEE</STMTTRN>
    <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261004<TRNAMT>-12.00<FITID>A2<NAME>LUNCH</STMTTRN>
    </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

    """

  @Test(arguments: ["application/x-ofx", "application/vnd.intu.qfx", "application/octet-stream", "text/plain"])
  func anOFXUploadIsImported(contentType: String) async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let created = try await client.call(
        .post, "/v1/imports?file=checking.ofx", headers: [.contentType: contentType], csv: Self.ofx)
      #expect(created.status == 201, "\(created.text)")
      #expect(created.json["new"]?.integer == 2)
      #expect(created.json["currency"]?.string == "USD")
      let again = try await client.call(
        .post, "/v1/imports?file=checking.ofx", headers: [.contentType: contentType], csv: Self.ofx)
      #expect(again.json["new"]?.integer == 0 && again.json["duplicates"]?.integer == 2)
    }
  }

  /// The balances of statements uploaded: `GET /v1/accounts` checks the rows against them,
  /// and a deleted row puts the account off by its amount.
  @Test func accountsAnswerWithTheirBalanceAgainstTheBank() async throws {
    let harness = try ServerHarness()
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/balances")
    try await harness.run { client in
      for name in ["checking-sep.ofx", "checking-oct.ofx"] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let created = try await client.call(
          .post, "/v1/imports?file=\(name)", headers: [.contentType: "application/x-ofx"], csv: text)
        #expect(created.status == 201, "\(created.text)")
      }
      var account = try await client.call(.get, "/v1/accounts", auth: .read).json["accounts"]?.array?.first
      #expect(account?["name"]?.string == "Checking …2345")
      #expect(account?["balances"]?.array?.first?["matches"]?.bool == true, "\(String(describing: account))")
      let listed = try await client.call(.get, "/v1/expenses?month=2026-10", auth: .read).json
      let groceries = listed["items"]?.array?.first { $0["description"]?.string == "GREENLEAF GROCERS" }
      let id = try #require(groceries?["id"]?.integer)
      #expect(try await client.call(.delete, "/v1/expenses/\(id)").status == 204)
      account = try await client.call(.get, "/v1/accounts", auth: .read).json["accounts"]?.array?.first
      let balance = account?["balances"]?.array?.first
      #expect(balance?["matches"]?.bool == false && balance?["offByMinor"]?.integer == -9_210)
      #expect(balance?["firstRowAfterMatch"]?["description"]?.string == "ACME PAYROLL")
    }
  }

  @Test func aBrokenStatementIs422WithItsLine() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let broken = Self.ofx.replacingOccurrences(of: "<TRNAMT>-12.00", with: "<TRNAMT>twelve")
      let reply = try await client.call(
        .post, "/v1/imports?file=checking.ofx", headers: [.contentType: "application/x-ofx"], csv: broken)
      #expect(reply.status == 422, "\(reply.text)")
      #expect(reply.json["detail"]?.string?.contains("checking.ofx:9") == true, "\(reply.text)")
      #expect(try harness.database.expenseCount(month: nil) == 0)
    }
  }
}

/// The parts of an uploaded QIF split stay together over the API: one part alone is 409
/// naming every part, `wholeSplit=true` deletes the set, a part's category still changes.
@Suite struct SplitTransactionAPITests {
  static let qif = """
    !Type:Bank
    D11/25/2026
    T-185.00
    PSuperstore
    SGroceries
    $-120.00
    SHousehold
    $-65.00
    ^

    """

  @Test func aSplitPartChangesOnlyWithItsSet() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let created = try await client.call(
        .post, "/v1/imports?file=shop.qif", headers: [.contentType: "application/qif"], csv: Self.qif)
      #expect(created.status == 201 && created.json["new"]?.integer == 2, "\(created.text)")
      let alone = try await client.call(.delete, "/v1/expenses/1")
      #expect(alone.status == 409, "\(alone.text)")
      #expect(alone.json["detail"]?.string?.contains("split transaction (expenses 1 2)") == true, "\(alone.text)")
      let amount = try await client.call(.patch, "/v1/expenses/2", json: #"{"amountMinor":-1}"#)
      #expect(amount.status == 409, "\(amount.text)")
      let category = try await client.call(.patch, "/v1/expenses/2", json: #"{"category":"Home"}"#)
      #expect(category.status == 200 && category.json["category"]?.string == "Home", "\(category.text)")
      #expect(try harness.database.expenseCount(month: nil) == 2)
      #expect(try await client.call(.delete, "/v1/expenses/2?wholeSplit=true").status == 204)
      #expect(try harness.database.expenseCount(month: nil) == 0)
    }
  }
}

import ExpenseCore
import ExpenseImport
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// OFX, QIF, CAMT.053 and MT940 files through the one import use case, as the CLI and the API
/// call it: told by content, stored in one transaction, duplicates by the bank's id, transfers.
@Suite struct StatementImportTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/statements")

  /// Every statement fixture with the rows it adds to an empty database, and the format it is.
  static let expected: [(path: String, new: Int, excluded: Int, format: StatementFormat)] = [
    ("ofx/us_checking_sgml_102.ofx", 4, 0, .ofx), ("ofx/card_quicken.qfx", 4, 0, .ofx),
    ("ofx/ca_savings_xml_220.ofx", 4, 0, .ofx), ("ofx/uk_current_oneline.ofx", 2, 0, .ofx),
    ("ofx/fr_compte_comma.ofx", 4, 0, .ofx), ("qif/quicken_us_checking.qif", 4, 0, .qif),
    ("qif/uk_ccard_dmy.qif", 3, 0, .qif), ("qif/splits_and_transfers.qif", 6, 0, .qif),
    ("qif/accounts_autoswitch.qif", 4, 0, .qif), ("qif/de_giro_comma.qif", 3, 0, .qif),
    ("camt053/sparkasse-001-02-batch.xml", 4, 0, .camt053),
    ("camt053/ing-nl-001-08-two-statements.xml", 3, 0, .camt053),
    ("camt053/pending-reversal-001-04.xml", 2, 2, .camt053), ("camt053/latin1-001-02-umlauts.xml", 1, 0, .camt053),
    ("mt940/deutsche-bank-structured.sta", 3, 0, .mt940), ("mt940/ing-unstructured.sta", 3, 0, .mt940),
    ("mt940/swift-blocks-two-statements.sta", 3, 0, .mt940), ("mt940/reversals-year-end.sta", 4, 0, .mt940),
  ]

  static func path(_ fixture: String) -> String { fixtures.appendingPathComponent(fixture).path }

  @Test(arguments: expected.map(\.path))
  func eachFixtureImportsOnceAndAgainAddsNothing(fixture: String) throws {
    let want = try #require(Self.expected.first { $0.path == fixture })
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let preview = try service.previewImport(ImportRequest(path: Self.path(fixture)), limit: 50)
    #expect(preview.detected?.format == want.format)
    #expect(preview.new == want.new && preview.preview.count == want.new)
    #expect(try service.expenses().isEmpty, "a preview writes nothing")

    let first = try service.importFile(ImportRequest(path: Self.path(fixture)))
    #expect(first.new == want.new)
    #expect(first.excluded == want.excluded)
    #expect(first.dialect.contains("encoding:"))
    #expect(try service.expenses().count == want.new)
    let stored = try service.expenses()
    #expect(
      stored.allSatisfy {
        $0.source?.file == URL(fileURLWithPath: fixture).lastPathComponent && $0.source?.line ?? 0 > 0
      })

    let again = try service.importFile(ImportRequest(path: Self.path(fixture)))
    #expect(again.new == 0 && again.duplicates == want.new, "the same statement again adds nothing")
  }

  static let ofxHead = """
    OFXHEADER:100
    DATA:OFXSGML
    VERSION:102
    ENCODING:USASCII
    CHARSET:1252

    <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
    <BANKACCTFROM><BANKID>1<ACCTID>CHK-1<ACCTTYPE>CHECKING</BANKACCTFROM>
    <BANKTRANLIST>

    """
  static let ofxTail = "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"

  static func ofx(_ transactions: [(id: String, date: String, amount: String, name: String)]) -> String {
    ofxHead
      + transactions.map {
        "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>\($0.date)<TRNAMT>\($0.amount)<FITID>\($0.id)<NAME>\($0.name)</STMTTRN>\n"
      }.joined() + ofxTail
  }

  @Test func theBanksIdKeepsTwinsAndAddsOnlyWhatIsNewInAnOverlappingFile() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let october = Self.ofx([
      ("A1", "20261003", "-4.50", "COFFEE"), ("A2", "20261003", "-4.50", "COFFEE"), ("A3", "20261005", "-20", "BOOKS"),
    ])
    let first = try service.importFile(ImportRequest(path: try folder.file("october.ofx", october)))
    #expect(first.new == 3, "two identical coffees with their own FITIDs are both kept")
    let overlapping = Self.ofx([
      ("A2", "20261003", "-4.50", "COFFEE"), ("A3", "20261005", "-20", "BOOKS"), ("A4", "20261007", "-9.99", "MUSIC"),
    ])
    let second = try service.importFile(ImportRequest(path: try folder.file("later.ofx", overlapping)))
    #expect(second.new == 1 && second.duplicates == 2)
    #expect(try service.expenses().count == 4)
  }

  @Test func aBadEntryStopsTheImportWithItsLineAndWritesNothing() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let bad = Self.ofx([("A1", "20261003", "-4.50", "COFFEE"), ("A2", "20261004", "12,34.5", "TEA")])
    do {
      _ = try service.importFile(ImportRequest(path: try folder.file("bad.ofx", bad)))
      Issue.record("a bad amount was imported")
    } catch let error as ImportError {
      let issue = try #require(error.issue)
      #expect(issue.line == 11 && issue.columnName == "TRNAMT" && issue.rawValue == "12,34.5")
      #expect(issue.file.hasSuffix("bad.ofx") && !issue.hint.isEmpty)
    }
    #expect(try service.expenses().isEmpty, "the good entry before it is not written either")
    #expect(try service.imports().isEmpty)
  }

  @Test func transfersBetweenOwnAccountsAreOfKindTransferUnlessTheUserSaidOtherwise() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    try service.setCategoryKind("Transfer: Cash", kind: .expense)
    let qif = """
      !Type:Bank
      D10/03/2026
      T-500.00
      PTo savings
      L[Savings]
      ^
      D10/04/2026
      T-40.00
      PATM
      L[Cash]
      ^
      D10/13/2026
      T-12.00
      PLunch
      LDining
      ^

      """
    let summary = try service.importFile(ImportRequest(path: try folder.file("bank.qif", qif)))
    #expect(summary.new == 3)
    let kinds = Dictionary(uniqueKeysWithValues: try service.categories().map { ($0.name, $0.kind) })
    #expect(kinds["Transfer: Savings"] == .transfer)
    #expect(kinds["Transfer: Cash"] == .expense, "a kind the user chose is kept")
    #expect(kinds["Dining"] == .expense)
  }

  @Test func aDryRunMarksNoTransfers() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let qif = "!Type:Bank\nD10/23/2026\nT-500.00\nPTo savings\nL[Savings]\n^\n"
    var request = ImportRequest(path: try folder.file("bank.qif", qif))
    request.dryRun = true
    _ = try service.importFile(request)
    #expect(try service.categories().isEmpty)
  }

  @Test func theSummaryNamesTheStatementsCurrencyAndTheReadersSettings() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let summary = try service.importFile(ImportRequest(path: Self.path("mt940/deutsche-bank-structured.sta")))
    #expect(summary.currency == "EUR" && summary.currencyReason == ":60F:")
    #expect(summary.detected?.settings.contains { $0.name == "currency" && $0.value == "EUR" } == true)
    #expect(summary.text(dryRun: false).contains("Currency: EUR (:60F:)"))
  }
}

/// A QIF split through the import use case: each part stored under its own category, the
/// parts kept together by delete and edit.
@Suite struct SplitTransactionServiceTests {
  @Test func theFixturesSplitsAreKeptTogether() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let path = StatementImportTests.path("qif/splits_and_transfers.qif")
    _ = try service.importFile(ImportRequest(path: path))
    let stored = try service.expenses().sorted { $0.id ?? 0 < $1.id ?? 0 }
    #expect(stored.map(\.amount.minor) == [-12000, -4500, -2000, -50000, 260000, -60000])
    #expect(stored.map { $0.category ?? "" }.prefix(3) == ["Groceries", "Household", "Transfer: Cash Wallet"])
    #expect(throws: StoreError.splitPart(id: 1, parts: [1, 2, 3], change: .delete)) {
      try service.deleteExpenses(ids: [1])
    }
    #expect(throws: StoreError.splitPart(id: 6, parts: [5, 6], change: .amountOrDate)) {
      try service.editExpense(id: 6, date: nil, amount: "700", description: nil, category: nil, account: nil)
    }
    #expect(
      try service.editExpense(id: 6, date: nil, amount: nil, description: nil, category: "Tax", account: nil)
        .category == "Tax")
    #expect(try service.deleteExpenses(ids: [3], wholeSplits: true).count == 3)
    #expect(try service.expenses().count == 3)
  }
}

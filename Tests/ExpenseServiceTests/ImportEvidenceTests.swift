import ExpenseCore
import ExpenseImport
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// An import is never silently wrong: weak evidence stops it before anything is written, and
/// every line it skips is announced in the summary.
@Suite struct ImportEvidenceTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/import")

  @Test(arguments: ["refuse_us_card_positive", "refuse_jp_card_no_currency", "refuse_sign_evidence_conflicts"])
  func weakEvidenceStopsBeforeWriting(_ name: String) throws {
    let folder = try ServiceTests.Folder()
    let db = try AppDatabase(path: folder.database)
    let path = Self.fixtures.appendingPathComponent(name + ".csv").path
    #expect {
      _ = try ImportService(store: db).run(ImportRequest(path: path))
    } throws: { error in
      guard case .undetectable(_, _, let hint)? = error as? ImportError else { return false }
      return hint.contains("--spending") || hint.contains("--currency")
    }
    #expect(try db.expenses().isEmpty, "nothing written")
  }

  /// Ordinary files import without flags, each saying what decided the sign: a checking file
  /// whose income makes most amounts positive, a running balance, a card's payment, and (the
  /// only default) no evidence in a mostly negative file.
  @Test(arguments: [
    ("checking_salary_refund_interest", "negative = money out (a money-in word on a positive row"),
    ("checking_running_balance_newest_first", "negative = money out (the running balance in column \"Balance\")"),
    ("card_payment_thank_you", "positive = money out (a card payment on a negative row"),
    ("whole_amounts_default_currency", "negative = money out (a money-in word on a positive row"),
    ("checking_no_evidence", "negative = money out (no evidence either way"),
    ("card_chain_purchases", "positive = money out (a purchase on a positive row"),
  ])
  func ordinaryFilesSayWhatDecidedTheSign(_ name: String, _ said: String) throws {
    let folder = try ServiceTests.Folder()
    let db = try AppDatabase(path: folder.database)
    let path = Self.fixtures.appendingPathComponent(name + ".csv").path
    let summary = try ImportService(store: db).run(ImportRequest(path: path))
    #expect(summary.new > 0 && summary.rejected == 0)
    #expect(summary.dialect.contains(said), "\(summary.dialect)")
    #expect(summary.text(dryRun: false).contains("Amounts: " + said.prefix(20)), "\(summary.text(dryRun: false))")
  }

  @Test func skippedPreambleLinesAreAnnounced() throws {
    let folder = try ServiceTests.Folder()
    let db = try AppDatabase(path: folder.database)
    let text = """
      Account,Everyday Checking
      Statement period,October 2026

      Date,Description,Amount
      2026-10-01,Coffee Corner,-3.50
      2026-10-02,Salary,2500.00
      2026-10-03,Green Grocer,-27.10
      """
    let summary = try ImportService(store: db).run(ImportRequest(path: try folder.file("bank.csv", text)))
    #expect(summary.new == 3)
    #expect(summary.preambleLines == [1, 2])
    #expect(summary.text(dryRun: false).contains("Skipped 2 preamble lines (1-2) before the header"))
    #expect(summary.json().contains("\"preambleLines\""))
  }
}

import ExpenseCore
import ExpenseImport
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// An import is never silently wrong: weak evidence stops it before anything is written, and
/// every line it skips is announced in the summary.
@Suite struct ImportEvidenceTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/import")

  @Test(arguments: ["refuse_us_card_positive", "refuse_jp_card_no_currency", "refuse_whole_amounts"])
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

import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import TestSupport
import Testing

/// `import --skip-invalid --rejects FILE`: the file copies the bank's text, so it is written as
/// every CSV is (`CSVWriter`): nothing raw for a terminal, no formula for a spreadsheet, and
/// its records, once fixed and put back under the bank file's header, import again.
@Suite struct RejectsFileTests {
  /// Imports `bank` skipping bad rows; returns the rejects file's records as Python reads them.
  func rejects(_ bank: String, folder: ServiceTests.Folder, db: AppDatabase) throws -> [[String]] {
    var request = ImportRequest(path: try folder.file("bank.csv", bank))
    request.skipInvalid = true
    let path = folder.url.appendingPathComponent("rejects.csv").path
    request.rejectsPath = path
    let summary = try ImportService(store: db).run(request)
    #expect(summary.new == 3 && summary.rejected == 2)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("line,column,value,message,hint,record\n"), "the header and LF line ends, as before")
    // Safe for a terminal: no control character but line ends and a tab-separated record's tabs.
    #expect(text.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) })
    let rows = try CSVOracle.read(text)
    #expect(rows.first == ["line", "column", "value", "message", "hint", "record"])
    for row in rows.dropFirst() {
      #expect(row.count == 6)
      // Safe for a spreadsheet: no cell starts a formula.
      for cell in row { #expect(!CSVWriter.looksLikeFormula(cell), "\(row)") }
    }
    return Array(rows.dropFirst())
  }

  /// The rejects' records, fixed by `fix`, under `header`: a file the importer takes again.
  func reimport(
    _ rows: [[String]], header: String, folder: ServiceTests.Folder, db: AppDatabase, fix: (String) -> String
  )
    throws -> ImportSummary
  {
    let fixed = ([header] + rows.map { fix($0[5]) }).joined(separator: "\n") + "\n"
    return try ImportService(store: db).run(ImportRequest(path: try folder.file("fixed.csv", fixed)))
  }

  @Test func aFormulaAndAControlCharacterAreMadeSafeAndTheFixedRecordsImportAgain() throws {
    let folder = try ServiceTests.Folder()
    let db = try AppDatabase(path: folder.database)
    let bank = """
      Date,Description,Amount
      2026-10-01,Rent,-1200.00
      2026-10-01,Bakery,-3.20
      2026-10-01,Salary,2500.00
      2026-10-02,"=HYPERLINK(""http://x"",""y"")\u{1B}[31m",twelve
      2026-10-03,Coffee,+4x50

      """
    let rows = try rejects(bank, folder: folder, db: db)
    #expect(rows.map { $0[0] } == ["5", "6"])
    #expect(rows.map { $0[1] } == ["Amount", "Amount"])
    #expect(rows[1][2] == "'+4x50", "a value that starts like a formula is defused")
    #expect(rows[0][5] == "2026-10-02,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")^[[31m\",twelve")
    #expect(rows[1][5] == "2026-10-03,Coffee,+4x50")

    let again = try reimport(rows, header: "Date,Description,Amount", folder: folder, db: db) {
      $0.replacingOccurrences(of: "twelve", with: "-12.00").replacingOccurrences(of: "+4x50", with: "-4.50")
    }
    #expect(again.new == 2 && again.rejected == 0)
    let stored = try db.expenses().map(\.description)
    #expect(stored.contains("=HYPERLINK(\"http://x\",\"y\")^[[31m"), "the bank's text, its escape made visible")
    #expect(stored.contains("Coffee"))
  }

  @Test func aTabSeparatedRecordKeepsItsTabs() throws {
    let folder = try ServiceTests.Folder()
    let db = try AppDatabase(path: folder.database)
    let bank =
      "Date\tDescription\tAmount\n2026-10-01\tRent\t-1200.00\n2026-10-01\tBakery\t-3.20\n"
      + "2026-10-01\tSalary\t2500.00\n2026-10-02\t@home\u{7}\ttwelve\n"
      + "2026-10-03\t\"Multi\nline\"\t-x\n"
    let rows = try rejects(bank, folder: folder, db: db)
    #expect(rows.map(\.last) == ["2026-10-02\t@home^G\ttwelve", "2026-10-03\t\"Multi line\"\t-x"])
    #expect(rows[1][2] == "'-x")
    let again = try reimport(rows, header: "Date\tDescription\tAmount", folder: folder, db: db) {
      $0.replacingOccurrences(of: "twelve", with: "-12.00").replacingOccurrences(of: "\t-x", with: "\t-1.00")
    }
    #expect(again.new == 2 && again.rejected == 0)
    #expect(Set(try db.expenses().map(\.description)) == ["Rent", "Bakery", "Salary", "@home^G", "Multi line"])
  }
}

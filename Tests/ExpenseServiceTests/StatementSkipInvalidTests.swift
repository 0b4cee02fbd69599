import ExpenseCore
import ExpenseImport
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import TestSupport
import Testing

/// `--skip-invalid` and `--rejects` for statement formats: a bad entry is skipped (and kept in
/// the rejects file with its line, field and value) while the good ones are imported; without
/// the flag the same entry stops the import and nothing is written.
@Suite struct StatementSkipInvalidTests {
  /// Imports `text` as `name` with `--skip-invalid --rejects`; the summary and the rejects'
  /// records as Python's csv reads them (header dropped).
  func skipping(_ name: String, _ text: String) throws -> (ImportSummary, [[String]], Int) {
    let folder = try ServiceTests.Folder()
    let db = try AppDatabase(path: folder.database)
    let path = try folder.file(name, text)
    #expect(throws: ImportError.self) { try ImportService(store: db).run(ImportRequest(path: path)) }
    #expect(try db.expenseCount() == 0, "without --skip-invalid the bad entry stops the import")
    var request = ImportRequest(path: path)
    request.skipInvalid = true
    request.rejectsPath = folder.url.appendingPathComponent("rejects.csv").path
    let summary = try ImportService(store: db).run(request)
    let rejects = try String(contentsOfFile: request.rejectsPath ?? "", encoding: .utf8)
    let rows = try CSVOracle.read(rejects)
    #expect(rows.first == ["line", "column", "value", "message", "hint", "record"])
    return (summary, Array(rows.dropFirst()), try db.expenseCount())
  }

  @Test func anOFXEntryWithABadAmountIsSkipped() throws {
    let text = StatementImportTests.ofx([
      ("A1", "20261003", "-4.50", "COFFEE"), ("A2", "20261004", "twelve", "LUNCH"),
      ("A3", "20261005", "-9.99", "BOOKS"),
    ])
    let (summary, rows, stored) = try skipping("checking.ofx", text)
    #expect(summary.new == 2 && summary.rejected == 1 && stored == 2)
    #expect(rows.count == 1)
    #expect(rows.first?[0] == "11" && rows.first?[1] == "TRNAMT" && rows.first?[2] == "twelve", "\(rows)")
  }

  @Test func aQIFRecordWithABadDateIsSkipped() throws {
    let text = """
      !Type:Bank
      D10/03/2026
      T-4.50
      PCoffee
      ^
      D13/45/2026
      T-12.00
      PLunch
      ^
      D10/25/2026
      T-9.99
      PBooks
      ^

      """
    let (summary, rows, stored) = try skipping("cash.qif", text)
    #expect(summary.new == 2 && summary.rejected == 1 && stored == 2)
    #expect(rows.first?[0] == "6" && rows.first?[1] == "D" && rows.first?[2] == "13/45/2026", "\(rows)")
  }

  @Test func anMT940EntrySkippedTurnsTheBalanceCheckIntoAWarning() throws {
    let text = """
      :20:940S261101
      :25:NL20INGB0001234567
      :28C:0
      :60F:C261031EUR500,00
      :61:261101C25,00N541NONREF
      :86:Refund lunch
      :61:261102DXX,35N426NONREF
      :86:Albert Heijn
      :61:261103D7,50NMSC1234567890
      :86:Fees
      :62F:C261103EUR505,15

      """
    let (summary, rows, stored) = try skipping("ing.sta", text)
    #expect(summary.new == 2 && summary.rejected == 1 && stored == 2)
    #expect(rows.first?[0] == "7" && rows.first?[1] == ":61:", "\(rows)")
    #expect(
      summary.warnings.contains {
        $0.contains("ing.sta:11: the closing balance 505,15 EUR does not match") && $0.contains("(517,50 EUR)")
          && $0.contains("1 skipped entry is missing")
      }, "\(summary.warnings)")
  }

  @Test func aCAMTEntryWithABadAmountIsSkipped() throws {
    func entry(_ amount: String, _ ref: String) -> String {
      """
      <Ntry><Amt Ccy="EUR">\(amount)</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
      <BookgDt><Dt>2026-11-02</Dt></BookgDt><AcctSvcrRef>\(ref)</AcctSvcrRef><AddtlNtryInf>Shop \(ref)</AddtlNtryInf></Ntry>
      """
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
      <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-03T00:00:00</CreDtTm></GrpHdr>
      <Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
      \(entry("12.50", "R1"))
      \(entry("1x.00", "R2"))
      \(entry("3.20", "R3"))
      </Stmt></BkToCstmrStmt></Document>

      """
    let (summary, rows, stored) = try skipping("camt.xml", text)
    #expect(summary.new == 2 && summary.rejected == 1 && stored == 2)
    #expect(rows.first?[0] == "7" && rows.first?[1] == "Ntry/Amt" && rows.first?[2] == "1x.00", "\(rows)")
  }
}

import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Detection takes a column or a line for what it is only on evidence: a row of data is never a
/// header or preamble, a name alone does not make a column an amount or a direction, and every
/// skipped line is announced.
@Suite struct EvidenceDetectionTests {
  func detect(_ text: String, _ options: ImportOptions = ImportOptions()) throws -> DetectedDialect {
    try CSVImporter(path: temporaryFile(text), options: options, defaultCurrency: .usd).detect()
  }

  @Test func aDateOutOfRangeIsNotAHeader() throws {
    let text = "9999-12-31,Standing order,-10.00\n2026-10-01,Coffee Corner,-3.50\n2026-10-02,Green Grocer,-2.00\n"
    let dialect = try detect(text)
    #expect(dialect.headerLine == nil)
    #expect(dialect.dataStartLine == 1)
    #expect(dialect.preambleLines.isEmpty)
    let result = try importAll(temporaryFile(text), skipInvalid: true)
    // Line 1 is a row: imported or rejected with its line, never dropped.
    #expect(
      result.rows.map(\.line) + result.rejected.map(\.line) == [2, 3, 1] || result.rows.map(\.line) == [1, 2, 3])
  }

  @Test func preambleLinesAreListed() throws {
    let path = FixtureTests.directory.appendingPathComponent("german_preamble_cp1252.csv").path
    var options = ImportOptions()
    options.encoding = .windows1252
    let dialect = try CSVImporter(path: path, options: options, defaultCurrency: .eur).detect()
    #expect(dialect.headerLine == 6)
    #expect(dialect.preambleLines == [1, 2, 3, 4])
    #expect(dialect.description.contains("skipped:       4 preamble lines (1-4)"))
  }

  @Test func aDirectionColumnHoldsDirectionWords() throws {
    let text = """
      Date,Description,Amount,Debit/Credit
      2026-10-01,STARBUCKS,-4.75,Debit Card
      2026-10-02,SHELL OIL,-41.20,Credit Card
      2026-10-03,REFUND TARGET,12.00,Debit Card

      """
    let dialect = try detect(text)
    #expect(dialect.columns[3].role == nil, "a card type is not a direction")
    #expect(try importAll(temporaryFile(text)).rows.map(\.amount.minor) == [-475, -4120, 1200])
  }

  @Test func wordsAreNeverAnAmount() throws {
    let text = """
      Date,Amount Type,Description,Paid out,Paid in
      2026-10-01,Card Payment,STARBUCKS,4.75,
      2026-10-02,Transfer,PAYROLL ACME,,2500.00
      2026-10-03,Direct Debit,CITY WATER,41.20,

      """
    let dialect = try detect(text)
    #expect(dialect.columns.map(\.role) == [.date, nil, .description, .debit, .credit])
    #expect(try importAll(temporaryFile(text)).rows.map(\.amount.minor) == [-475, 250_000, -4120])
  }

  @Test(arguments: ["Ccy", "Cur", "Curr.", "Währ.", "Whg"])
  func abbreviatedCurrencyHeaders(_ name: String) throws {
    let text = "Date,Description,Amount,\(name)\n2026-10-01,Hotel Lisboa,-120.00,EUR\n2026-10-02,Pret,-6.40,GBP\n"
    let dialect = try detect(text)
    #expect(dialect.columns[3].role == .currency)
    #expect(try importAll(temporaryFile(text)).rows.map(\.amount.currency.code) == ["EUR", "GBP"])
  }

  @Test func noBreakSpaceGroupsThousands() throws {
    // U+202F and U+00A0 in UTF-8; 0xA0 in Windows-1252.
    let utf8 = "Date;Description;Amount\n2026-10-01;Loyer;-1\u{202F}200,00\n2026-10-02;Salaire;2\u{A0}500,00\n"
    #expect(try importAll(temporaryFile(utf8)).rows.map(\.amount.minor) == [-120_000, 250_000])
    let cp1252: [UInt8] =
      Array("Date;Description;Amount\n2026-10-01;Loyer pay".utf8) + [0xE9] + Array(";-1".utf8) + [0xA0]
      + Array("200,00\n2026-10-02;Salaire;2".utf8) + [0xA0] + Array("500,00\n".utf8)
    #expect(try importAll(temporaryFile(cp1252)).rows.map(\.amount.minor) == [-120_000, 250_000])
  }
}

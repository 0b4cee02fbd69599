import ExpenseCore
import Testing

@testable import ExpenseImport

@Suite struct AmountParserTests {
  let dot = AmountParser(decimalMark: UInt8(ascii: "."))
  let comma = AmountParser(decimalMark: UInt8(ascii: ","))

  @Test(arguments: [
    ("12.50", Int64(1250)), ("-12.50", -1250), ("+12.5", 1250), ("(12.50)", -1250), ("12.50-", -1250),
    ("\u{2212}12.50", -1250), ("$1,234.56", 123_456), ("USD 12.00", 1200), ("12.00 USD", 1200),
    ("€ 9.99", 999), ("£1,000", 100_000), ("12.50 DR", -1250), ("12.50 CR", 1250), ("1'234.50", 123_450),
    ("1 234.50", 123_450), ("1\u{00A0}234.50", 123_450), (".50", 50), ("12.", 1200), ("12.500", 1250),
    ("($1,299.00)", -129_900), ("  7  ", 700),
  ])
  func dotAmounts(_ text: String, _ minor: Int64) {
    #expect(dot.parse(text, minorUnits: 2) == .success(minor), "\(text)")
  }

  @Test(arguments: [
    ("1.234,56", Int64(123_456)), ("-45,67", -4567), ("12,50 €", 1250), ("1.100,00-", -110_000), ("0,42", 42),
  ])
  func commaAmounts(_ text: String, _ minor: Int64) {
    #expect(comma.parse(text, minorUnits: 2) == .success(minor), "\(text)")
  }

  @Test func failures() {
    #expect(dot.parse("", minorUnits: 2) == .failure(.empty))
    #expect(dot.parse("  - ", minorUnits: 2) == .failure(.empty))
    #expect(dot.parse("twelve", minorUnits: 2) == .failure(.invalid))
    #expect(dot.parse("12.345", minorUnits: 2) == .failure(.tooManyDecimals))
    #expect(dot.parse("1.2.3", minorUnits: 2) == .failure(.invalid))
    #expect(dot.parse("(12.50", minorUnits: 2) == .failure(.invalid))
    #expect(dot.parse("99999999999999999999", minorUnits: 2) == .failure(.outOfRange))
    #expect(dot.parse("12 - 3", minorUnits: 2) == .failure(.invalid))
  }

  @Test func currencyExponents() {
    #expect(dot.parse("1,500", minorUnits: 0) == .success(1500))
    #expect(dot.parse("1.250", minorUnits: 3) == .success(1250))
    #expect(dot.parse("12.5", minorUnits: 0) == .failure(.tooManyDecimals))
  }

  @Test func decimalMarkVotes() {
    #expect(AmountParser.vote("1.234,56") == .comma)
    #expect(AmountParser.vote("1,234.56") == .dot)
    #expect(AmountParser.vote("12,50") == .comma)
    #expect(AmountParser.vote("1,234") == .ambiguous)
    #expect(AmountParser.vote("1,234,567") == .dot)
    #expect(AmountParser.vote("42") == .none)
  }
}

@Suite struct DateParserTests {
  func d(_ y: Int, _ m: Int, _ day: Int) -> CivilDate { CivilDate(year: y, month: m, day: day)! }

  @Test func orders() {
    let ymd = DateFormat(order: .ymd)
    let dmy = DateFormat(order: .dmy)
    let mdy = DateFormat(order: .mdy)
    #expect(ymd.date("2026-10-20") == d(2026, 10, 20))
    #expect(ymd.date("20261020") == d(2026, 10, 20))
    #expect(ymd.date("2026-10-20T14:33:00Z") == d(2026, 10, 20))
    #expect(dmy.date("20.10.2026") == d(2026, 10, 20))
    #expect(dmy.date("1/2/26") == d(2026, 2, 1))
    #expect(dmy.date("20/10/2026 14:33") == d(2026, 10, 20))
    #expect(mdy.date("10/20/2026") == d(2026, 10, 20))
    #expect(mdy.date("2/1/99") == d(1999, 2, 1))
    #expect(dmy.date("20 Oct 2026") == d(2026, 10, 20))
    #expect(mdy.date("Oct 20, 2026") == d(2026, 10, 20))
    #expect(dmy.date("20-Okt-26") == d(2026, 10, 20))
  }

  @Test func rejects() {
    let ymd = DateFormat(order: .ymd)
    #expect(ymd.date("2026-02-30") == nil)
    #expect(ymd.date("2026-13-01") == nil)
    #expect(ymd.date("") == nil)
    #expect(ymd.date("Kontostand") == nil)
    #expect(ymd.date("2026-10-20x") == nil)
    #expect(DateFormat(order: .mdy).date("20/10/2026") == nil)
  }

  @Test func patterns() {
    #expect(DateFormat(pattern: "DD.MM.YYYY") == DateFormat(order: .dmy, separator: ".", twoDigitYear: false))
    #expect(DateFormat(pattern: "M/D/YY") == DateFormat(order: .mdy, separator: "/", twoDigitYear: true))
    #expect(DateFormat(pattern: "YYYYMMDD")?.description == "YYYYMMDD")
    #expect(DateFormat(pattern: "DD/MM/YYYY")?.description == "DD/MM/YYYY")
    #expect(DateFormat(pattern: "YYYY-QQ-DD") == nil)
    #expect(DateFormat(pattern: "DD/MM") == nil)
  }
}

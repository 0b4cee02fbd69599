import ExpenseCore
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import ExpenseImport

@Suite struct QIFReaderTests {
  typealias T = StatementTesting

  func read(
    _ text: String, options: ImportOptions = ImportOptions(), defaultCurrency: Currency = .usd
  ) -> (events: [StatementEvent], settings: [StatementSetting], error: ImportError?) {
    T.run(QIFReader.self, Array(text.utf8), file: "t.qif", options: options, defaultCurrency: defaultCurrency)
  }

  // MARK: Fixtures

  @Test func quickenChecking() throws {
    let result = T.run(QIFReader.self, try T.fixture("qif/quicken_us_checking.qif"))
    #expect(result.error == nil)
    #expect(
      result.events == [
        .entry(try T.entry(2, "2026-10-03", -4217, "USD", "Corner Grocery / Weekly shop", category: "Groceries")),
        .entry(try T.entry(11, "2026-10-15", 231_055, "USD", "Acme Widgets Payroll", category: "Salary")),
        .entry(try T.entry(17, "2026-10-05", -125_000, "USD", "Prairie Property Mgmt", category: "Housing:Rent")),
        .entry(try T.entry(25, "2026-10-31", -500, "USD", "Service charge", category: "Bank Charges")),
      ])
    #expect(
      result.settings == [
        StatementSetting(name: "format", value: "QIF (Bank)", source: "!Type:Bank"),
        StatementSetting(name: "date format", value: "MM/DD/YYYY", source: "detected"),
        StatementSetting(name: "currency", value: "USD", source: "the database's default"),
      ])
  }

  @Test func ukCreditCardDayFirst() throws {
    let result = T.run(
      QIFReader.self, try T.fixture("qif/uk_ccard_dmy.qif"), defaultCurrency: Currency(code: "GBP") ?? .usd)
    #expect(result.error == nil)
    #expect(
      result.events == [
        .entry(try T.entry(2, "2026-10-03", -1240, "GBP", "Tesco Metro", category: "Groceries")),
        .entry(try T.entry(7, "2026-10-15", -104_900, "GBP", "Currys / Washing machine", category: "Household")),
        .entry(
          try T.entry(13, "2026-10-28", 40_000, "GBP", "Payment received", category: "Current Account", transfer: true)),
      ])
    #expect(result.settings.first == StatementSetting(name: "format", value: "QIF (CCard)", source: "!Type:CCard"))
    #expect(result.settings.contains(StatementSetting(name: "date format", value: "DD/MM/YYYY", source: "detected")))
  }

  @Test func splitsAndTransfers() throws {
    let result = T.run(QIFReader.self, try T.fixture("qif/splits_and_transfers.qif"))
    #expect(result.error == nil)
    #expect(
      result.events == [
        .warning("the category list (!Type:Cat) is not read"),
        .warning("memorized transactions (!Type:Memorized) are not read"),
        .entry(
          try T.entry(20, "2026-11-02", -12_000, "USD", "Superstore / Monthly shop", category: "Groceries", split: 1)),
        .entry(
          try T.entry(22, "2026-11-02", -4500, "USD", "Superstore / Bulbs and soap", category: "Household", split: 1)),
        .entry(
          try T.entry(
            25, "2026-11-02", -2000, "USD", "Superstore / Cash back", category: "Cash Wallet", transfer: true, split: 1)
        ),
        .entry(
          try T.entry(29, "2026-11-09", -50_000, "USD", "Transfer to savings", category: "Savings", transfer: true)),
        .entry(try T.entry(37, "2026-11-20", 260_000, "USD", "Paycheck", category: "Salary", split: 2)),
        .entry(
          try T.entry(39, "2026-11-20", -60_000, "USD", "Paycheck / Withholding", category: "Taxes:Federal", split: 2)),
      ])
  }

  @Test func accountBlocksAndAMissingLastCaret() throws {
    let result = T.run(QIFReader.self, try T.fixture("qif/accounts_autoswitch.qif"))
    #expect(result.error == nil)
    let checking = "Everyday Checking"
    let visa = "Travel Visa"
    #expect(
      result.events == [
        .entry(
          try T.entry(16, "2027-01-04", -6000, "USD", "City Water", category: "Utilities:Water", account: checking)),
        .entry(try T.entry(21, "2027-01-13", -2350, "USD", "Bookshop", account: checking)),
        .warning("investment records (!Type:Invst) are not read"),
        .entry(try T.entry(42, "2027-01-20", -31_000, "USD", "Airline", category: "Travel", account: visa)),
        .entry(try T.entry(47, "2027-01-22", -1800, "USD", "Taxi", category: "Travel", account: visa)),
      ])
    #expect(
      result.settings == [
        StatementSetting(name: "format", value: "QIF (Bank)", source: "!Type:Bank"),
        StatementSetting(name: "format", value: "QIF (CCard)", source: "!Type:CCard"),
        StatementSetting(name: "date format", value: "MM/DD/YYYY", source: "detected"),
        StatementSetting(name: "currency", value: "USD", source: "the database's default"),
        StatementSetting(name: "account", value: checking, source: "!Account"),
        StatementSetting(name: "account", value: visa, source: "!Account"),
      ])
  }

  @Test func germanCommaDecimalsAndDottedDates() throws {
    var options = ImportOptions()
    options.currency = "EUR"
    let result = T.run(QIFReader.self, try T.fixture("qif/de_giro_comma.qif"), options: options)
    #expect(result.error == nil)
    #expect(
      result.events == [
        .entry(
          try T.entry(2, "2026-10-01", -123_456, "EUR", "Hausverwaltung Müller / Miete Oktober", category: "Wohnen")),
        .entry(try T.entry(8, "2026-10-14", -2345, "EUR", "Bäckerei Schmidt")),
        .entry(try T.entry(12, "2026-10-30", 310_000, "EUR", "Gehalt", category: "Einkommen")),
      ])
    #expect(result.settings.contains(StatementSetting(name: "date format", value: "DD.MM.YYYY", source: "detected")))
    #expect(result.settings.contains(StatementSetting(name: "currency", value: "EUR", source: "--currency")))
  }

  @Test(arguments: [
    "quicken_us_checking.qif", "uk_ccard_dmy.qif", "splits_and_transfers.qif", "accounts_autoswitch.qif",
    "de_giro_comma.qif",
  ])
  func fixturesReadInSmallChunks(_ name: String) throws {
    let bytes = try T.fixture("qif/" + name)
    let whole = T.run(QIFReader.self, bytes)
    for chunk in [1, 5] {
      let pieces = T.run(QIFReader.self, bytes, chunk: chunk)
      #expect(pieces.events == whole.events && pieces.error == whole.error, "chunk \(chunk)")
    }
  }

  // MARK: Behaviour

  @Test func dateLayouts() throws {
    func date(_ raw: String, _ pattern: String? = nil) -> String? {
      var options = ImportOptions()
      options.dateFormat = pattern
      let events = read("!Type:Bank\nD\(raw)\nT-1\n^\n", options: options).events
      return T.entries(events).first?.date.description
    }
    #expect(date(" 1/ 2'98", "M/D/YY") == "2098-01-02")
    #expect(date("1/ 2' 5", "M/D/YY") == "2005-01-02")
    #expect(date("1/13' 5") == "2005-01-13")
    #expect(date("12/25/98") == "1998-12-25")
    #expect(date("12/25/2026") == "2026-12-25")
    #expect(date("25.12.2026") == "2026-12-25")
    #expect(date("2026-12-03") == "2026-12-03")
    #expect(date("03/04/2026", "DD/MM/YYYY") == "2026-04-03")
    #expect(date("03/04/2026", "MM/DD/YYYY") == "2026-03-04")
    #expect(date("04/04/2026") == "2026-04-04")
  }

  @Test func amountsWithGroupingAndSigns() throws {
    func amount(_ raw: String) -> Int64? {
      T.entries(read("!Type:Bank\nD1/13/2026\nT\(raw)\n^\n").events).first?.amount.minor
    }
    #expect(amount("1,234.56") == 123_456)
    #expect(amount("-1,234.56") == -123_456)
    #expect(amount("+12.5") == 1250)
    #expect(amount("1,234") == 123_400)
    #expect(amount("-0.07") == -7)
  }

  @Test func optionsAccountAndCurrency() throws {
    var options = ImportOptions()
    options.account = "Household"
    options.currency = "JPY"
    let text = "!Account\nNOld name\nTBank\n^\n!Type:Cash\nD1/13/2026\nT-1,500\nPMarket\n^\n"
    let result = read(text, options: options)
    #expect(result.events == [.entry(try T.entry(6, "2026-01-13", -1500, "JPY", "Market", account: "Household"))])
    #expect(result.settings.contains(StatementSetting(name: "account", value: "Household", source: "--account")))
    #expect(!result.settings.contains { $0.source == "!Account" })
  }

  @Test func otherAccountTypesAreRead() throws {
    for type in ["Oth A", "Oth L", "Cash", "ccard", "bank"] {
      let result = read("!Type:\(type)\nD1/13/2026\nT-1\n^\n")
      #expect(T.entries(result.events).count == 1, "\(type)")
    }
  }

  // MARK: Refusals

  func refusal(_ text: String, options: ImportOptions = ImportOptions()) -> ImportIssue? {
    read(text, options: options).error?.issue
  }

  @Test func refusesABadDate() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT-1\n^\nDyesterday\nT-2\n^\n"))
    #expect(issue.kind == .badDate && issue.line == 5 && issue.columnName == "D" && issue.rawValue == "yesterday")
    #expect(issue.message == "not a date")
    #expect(issue.hint == "QIF dates look like 10/3'26, 10/03/2026, 03.10.2026 or 2026-10-03: the file may be damaged")
    #expect(issue.file == "t.qif")
  }

  @Test func refusesADateThatIsNoDayInTheFileOrder() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT-1\n^\nD2/30/2026\nT-2\n^\n"))
    #expect(issue.kind == .badDate && issue.line == 5 && issue.columnName == "D")
    #expect(issue.message == "not a date when read as month/day/year")
    #expect(issue.hint == "check the date; if the file's dates are the other way round, say so with --date-format")
  }

  @Test func refusesADateOutsideTheSupportedRange() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/1899\nT-1\n^\n"))
    #expect(issue.kind == .badDate && issue.message == "the date is outside 1900–2999" && issue.line == 2)
  }

  @Test func refusesABadAmount() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT12.5O\n^\n"))
    #expect(issue.kind == .badAmount && issue.line == 3 && issue.columnName == "T" && issue.rawValue == "12.5O")
    #expect(issue.message == "not an amount")
    #expect(issue.hint == "amounts in this file are read with '.' as decimal mark; use --decimal-mark to override")
  }

  @Test func refusesMoreDecimalsThanTheCurrencyHas() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nU-1.2345\n^\n"))
    #expect(issue.kind == .badAmount && issue.line == 3 && issue.columnName == "U")
    #expect(issue.message == "more decimals than USD has (2)")
    #expect(issue.hint == "QIF names no currency: give the file's with --currency")
  }

  @Test func refusesARecordWithoutADate() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT-1\n^\nT-2\nPShop\n^\n"))
    #expect(issue.kind == .missingRequiredColumn && issue.line == 5 && issue.columnName == "D")
    #expect(issue.message == "the record has no date (D line)")
    #expect(issue.hint == "every transaction record needs a D and a T line before its ^: the file may be damaged")
  }

  @Test func refusesARecordWithoutAnAmount() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nPShop\n^\n"))
    #expect(issue.kind == .missingRequiredColumn && issue.line == 2 && issue.columnName == "T")
    #expect(issue.message == "the record has no amount (T line)")
  }

  @Test func refusesASplitWithoutAnAmount() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT-1\nSFood\n$-1\nSFuel\n^\n"))
    #expect(issue.kind == .missingRequiredColumn && issue.line == 6 && issue.columnName == "$")
    #expect(issue.hint == "every split (S line) needs its amount ($ line)")
  }

  @Test func refusesSplitsThatDoNotAddUp() throws {
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT-65.00\nSFood\n$-40.00\nSFuel\n$-20.00\n^\n"))
    #expect(issue.kind == .badAmount && issue.line == 3 && issue.columnName == "T" && issue.rawValue == "-65.00")
    #expect(issue.message == "the splits add up to -60.00 but the record's total is -65.00")
    #expect(issue.hint == "the file is damaged or was edited by hand: correct the split amounts ($ lines) or the total")
  }

  @Test func refusesATruncatedRecord() throws {
    #expect(
      read("!Type:Bank\nD1/13/2026\nT-1\n^\nD1/14/2026\nPShop").error
        == .undetectable(
          file: "t.qif", message: "the file ends inside the record that starts on line 5 (no ^ after it)",
          hint: "the file is truncated: export it again"))
  }

  @Test func refusesDatesThatFitBothOrders() throws {
    #expect(
      read("!Type:Bank\nD03/04/2026\nT-1\n^\nD05/06/2026\nT-1\n^\n").error
        == .undetectable(
          file: "t.qif", message: "the dates fit both day/month and month/day (e.g. '03/04/2026')",
          hint: "say which with --date-format DD/MM/YYYY or --date-format MM/DD/YYYY"))
  }

  @Test func refusesDatesThatContradictEachOther() throws {
    #expect(
      read("!Type:Bank\nD13/04/2026\nT-1\n^\nD04/13/2026\nT-1\n^\n").error
        == .undetectable(
          file: "t.qif",
          message:
            "the dates contradict each other: line 2 ('13/04/2026') has the day first, line 5 ('04/13/2026') the month first",
          hint: "correct the file, or say which with --date-format DD/MM/YYYY or --date-format MM/DD/YYYY"))
  }

  @Test func refusesMixedDecimalMarks() throws {
    #expect(
      read("!Type:Bank\nD1/13/2026\nT-1.50\n^\nD1/14/2026\nT-2,50\n^\n").error
        == .undetectable(
          file: "t.qif",
          message: "the amounts use both '.' (line 3: '-1.50') and ',' (line 6: '-2,50') as decimal mark",
          hint: "correct the file, or say which with --decimal-mark . or --decimal-mark ,"))
  }

  @Test func refusesAHeaderInsideARecord() throws {
    #expect(
      read("!Type:Bank\nD1/13/2026\nT-1\n!Type:Bank\n").error
        == .undetectable(
          file: "t.qif", message: "line 4: a header comes before the record from line 2 ends with ^",
          hint: "the file is damaged: every record ends with a line holding ^"))
  }

  @Test func refusesALineOverTheFieldLimit() throws {
    let long = String(repeating: "x", count: ImportLimits.maxFieldBytes)
    let issue = try #require(refusal("!Type:Bank\nD1/13/2026\nT-1\nM\(long)\n^\n"))
    #expect(issue.kind == .fieldTooLong && issue.line == 4 && issue.columnName == "M")
    #expect(issue.message == "the line is \(ImportLimits.maxFieldBytes + 1) bytes; the limit is 64 KiB")
  }

  @Test func refusesAnInvalidDateFormatOption() throws {
    var options = ImportOptions()
    options.dateFormat = "QQ"
    #expect(
      read("!Type:Bank\nD1/13/2026\nT-1\n^\n", options: options).error
        == .invalidOption(
          option: "--date-format",
          message: "'QQ' is not a date pattern; use the tokens YYYY YY MM M DD D, e.g. DD.MM.YYYY or YYYYMMDD"))
  }

  // MARK: Properties

  @Test func mutatedFixturesReadOrFailCleanly() throws {
    let names = ["quicken_us_checking.qif", "uk_ccard_dmy.qif", "splits_and_transfers.qif", "accounts_autoswitch.qif"]
    let fixtures = try names.map { try T.fixture("qif/" + $0) }
    let alphabet = Array("^!DTSE$LPM[]/'.,-+0123456789\r\n :Type".utf8) + [0xFF, 0xEF, 0xBB, 0xBF]
    T.readsMutatedFixturesCleanly(QIFReader.self, fixtures, alphabet: alphabet)
  }

  /// Random transactions written as QIF (with the date layout and grouping chosen at random)
  /// read back exactly.
  @Test func randomStatementsRoundTrip() async {
    await propertyCheck(count: 120, input: Gen.int(in: 0...Int.max)) { seed in
      var random = SeededRandom(state: UInt64(seed))
      let statement = RandomStatement(&random)
      let dayFirst = random.int(0...1) == 0
      var options = ImportOptions()
      options.currency = statement.currency.code
      options.dateFormat = dayFirst ? "DD/MM/YYYY" : "MM/DD/YYYY"
      let text = statement.qif(dayFirst: dayFirst, &random)
      let result = T.run(QIFReader.self, Array(text.utf8), options: options, chunk: random.int(1...4096))
      #expect(result.error == nil, "\(String(describing: result.error))\n\(text)")
      let read = T.entries(result.events).map {
        var entry = $0
        entry.line = 0
        return entry
      }
      let expected = statement.expected().map {
        var entry = $0
        entry.account = nil
        entry.accountName = nil
        entry.transactionID = nil
        return entry
      }
      #expect(read == expected, "\(text)")
    }
  }
}

extension RandomStatement {
  /// The statement as a QIF `!Type:Bank` file.
  func qif(dayFirst: Bool, _ random: inout SeededRandom) -> String {
    let newline = random.int(0...1) == 0 ? "\n" : "\r\n"
    var out = "!Type:Bank" + newline
    for t in transactions {
      let (d, m, y) = (t.date.day, t.date.month, t.date.year)
      let (a, b) = dayFirst ? (d, m) : (m, d)
      if (2000...2099).contains(y) && random.int(0...1) == 0 {
        out += "D\(a)/\(b < 10 ? " " : "")\(b)'\(String(format: "%02d", y - 2000))" + newline
      } else {
        out += String(format: "D%02d/%02d/%04d", a, b, y) + newline
      }
      var amount = decimal(t.minor, comma: false)
      if random.int(0...1) == 0 { amount = RandomStatement.grouped(amount) }
      out += "T\(amount)" + newline
      out += "P\(t.name)" + newline
      if !t.memo.isEmpty { out += "M\(t.memo)" + newline }
      out += "^" + newline
    }
    return out
  }

  /// `-1234567.89` → `-1,234,567.89`.
  static func grouped(_ text: String) -> String {
    let negative = text.hasPrefix("-")
    let body = negative ? String(text.dropFirst()) : text
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    let whole = Array(parts[0])
    var out = ""
    for (index, digit) in whole.enumerated() {
      if index > 0 && (whole.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    if parts.count > 1 { out += "." + parts[1] }
    return (negative ? "-" : "") + out
  }
}

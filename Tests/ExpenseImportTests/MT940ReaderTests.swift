import ExpenseCore
import Foundation
import PropertyBased
import Testing

@testable import ExpenseImport

@Suite struct MT940ReaderTests {
  static func read(_ name: String, options: ImportOptions = ImportOptions()) throws -> StatementRun {
    try StatementRun.read(MT940Reader.self, try StatementRun.fixture("mt940", name), file: name, options: options)
  }

  static func read(text: String) throws -> StatementRun {
    try StatementRun.read(MT940Reader.self, Array(text.utf8))
  }

  static func issue(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ImportIssue? {
    StatementRun.error(MT940Reader.self, Array(text.utf8), file: "s.sta", sourceLocation: sourceLocation)?.issue
  }

  /// A statement around the given lines (the first of them is line 4).
  static func statement(_ lines: String, opening: String = "C261001EUR100,00", closing: String = "C261001EUR90,00")
    -> String
  {
    ":20:T\n:25:DE02120300000000202051\n:60F:\(opening)\n\(lines)\n:62F:\(closing)\n"
  }

  static let gbp = Currency(code: "GBP") ?? .usd

  // MARK: Fixtures

  @Test func deutscheBankStructuredDetails() throws {
    let run = try Self.read("deutsche-bank-structured.sta")
    let account = "10070000/0123456789"
    // The opening balance (:60F: C261030EUR1000,00) is the balance at the end of 29 October;
    // the closing one (:62F:) that of the 31st.
    let file = "deutsche-bank-structured.sta"
    #expect(
      run.events == [
        .balance(
          StatementBalance(
            account: account, date: try day("2026-10-29"), amount: eur(100_000), file: file, line: 4,
            source: "MT940 :60F:")),
        .entry(
          StatementEntry(
            line: 5, date: try day("2026-10-30"), amount: eur(-5420),
            description: "Stadtwerke Musterstadt GmbH / Strom Abschlag November 2026", account: account,
            transactionID: "POS20261030A")),
        .entry(
          StatementEntry(
            line: 9, date: try day("2026-10-31"), amount: eur(245000), description: "Beispiel AG / Gehalt Oktober 2026",
            account: account, transactionID: "GEHALT102026")),
        .entry(
          StatementEntry(
            line: 12, date: try day("2026-10-31"), amount: eur(-390), description: "Kontofuehrung Oktober",
            account: account, transactionID: nil)),
        .balance(
          StatementBalance(
            account: account, date: try day("2026-10-31"), amount: eur(339_190), file: file, line: 14,
            source: "MT940 :62F:")),
      ])
    #expect(
      run.settings == [
        StatementSetting(name: "format", value: "MT940", source: "content"),
        StatementSetting(name: "account", value: account, source: ":25:"),
        StatementSetting(name: "currency", value: "EUR", source: ":60F:"),
        StatementSetting(name: "statements", value: "1", source: ":20:"),
        StatementSetting(name: "balances", value: "checked", source: ":60F:/:62F:"),
      ])
  }

  @Test func ingUnstructuredDetailsWithCRLF() throws {
    let run = try Self.read("ing-unstructured.sta")
    let account = "NL20INGB0001234567"
    // The keyword style gives the name and the purpose; the whole field, as it was read before,
    // stays the entry's identity (it has no bank reference), so a file imported then is known.
    var keywords = StatementEntry(
      line: 6, date: try day("2026-11-01"), amount: eur(2500), description: "P. de Boer / Terugbetaling lunch",
      account: account)
    keywords.identityDescription =
      "/TRTP/SEPA OVERBOEKING/IBAN/NL20INGB0009876543/BIC/INGBNL2A /NAME/P. de Boer/REMI/Terugbetaling lunch"
    #expect(
      run.entries == [
        keywords,
        StatementEntry(
          line: 10, date: try day("2026-11-02"), amount: eur(-1235),
          description: "Albert Heijn 1234 AMSTERDAM Betaalautomaat 02-11-2026 18:04", account: account),
        StatementEntry(
          line: 13, date: try day("2026-11-03"), amount: eur(-750), description: "Kosten pakket november",
          account: account),
      ])
  }

  @Test func dutchKeywordStyleNameAndPurpose() throws {
    let run = try Self.read("rabobank-keywords.sta")
    #expect(
      run.entries.map(\.description) == [
        "J. Jansen / Factuur 2026-117", "W. de Vries / Terugbetaling koffie", "Kosten betaalpakket november",
      ])
    #expect(
      run.entries.map(\.identityDescription) == [
        "/TRTP/SEPA OVERBOEKING/IBAN/NL44ABNA0412345678/BIC/ABNANL2A/NAME/J. Ja nsen/REMI/USTD//Factuur 2026-117/EREF/NOTPROVIDED",
        "/CNTP/NL20INGB0009876543/INGBNL2A/W. de Vries/UTRECHT//REMI/USTD//Te rugbetaling koffie/", nil,
      ])
  }

  @Test func keywordStyleNeedsAKnownKeywordFirst() {
    #expect(
      MT940Keywords("/TRTP/SEPA/NAME/A. B/REMI/STRD/CUR/RF18 5390 0754 7034")?.description
        == "A. B / RF18 5390 0754 7034")
    #expect(MT940Keywords("/CNTP/NL20INGB0009876543/INGBNL2A/C. D/ZWOLLE/")?.description == "C. D")
    #expect(MT940Keywords("/12/2026 rent") == nil, "a slash first is not yet the keyword style")
    #expect(MT940Keywords("/TRTP/SEPA INCASSO/IBAN/NL20INGB0009876543") == nil, "no name and no purpose")
  }

  @Test func swiftBlocksAndTwoStatements() throws {
    let run = try Self.read("swift-blocks-two-statements.sta")
    let account = "DE89370400440532013000"
    #expect(
      run.entries == [
        StatementEntry(
          line: 6, date: try day("2026-11-01"), amount: eur(-2000), description: "Miete Garage November",
          account: account, transactionID: "BANK-1"),
        StatementEntry(
          line: 15, date: try day("2026-11-02"), amount: eur(100000), description: "Bonus", account: account,
          transactionID: "BANK-2"),
        StatementEntry(
          line: 17, date: try day("2026-11-02"), amount: eur(-99), description: "", account: account,
          transactionID: nil),
      ])
    #expect(run.settings.contains(StatementSetting(name: "statements", value: "2", source: ":20:")))
  }

  @Test func reversalsAndTheYearBoundary() throws {
    let run = try Self.read("reversals-year-end.sta")
    let account = "DE44500105175407324931"
    func gbp(_ minor: Int64) -> Money { Money(minor: minor, currency: Self.gbp) }
    #expect(
      run.entries == [
        StatementEntry(
          line: 4, date: try day("2027-01-02"), amount: gbp(-3000), description: "Lastschrift Versicherung",
          account: account, transactionID: "Y1"),
        StatementEntry(
          line: 6, date: try day("2027-01-02"), amount: gbp(3000), description: "Ruecklastschrift Versicherung",
          account: account, transactionID: "Y2"),
        StatementEntry(
          line: 8, date: try day("2026-12-31"), amount: gbp(500), description: "Gutschrift", account: account,
          transactionID: "Y3"),
        StatementEntry(
          line: 10, date: try day("2027-01-02"), amount: gbp(-500), description: "Storno Gutschrift",
          account: account, transactionID: "Y4"),
      ])
    #expect(run.settings.contains(StatementSetting(name: "currency", value: "GBP", source: ":60F:")))
  }

  @Test func theAccountOptionWins() throws {
    var options = ImportOptions()
    options.account = "Giro"
    let run = try Self.read("deutsche-bank-structured.sta", options: options)
    #expect(Set(run.entries.map(\.account)) == ["Giro"])
    #expect(run.settings.contains(StatementSetting(name: "account", value: "Giro", source: "--account")))
  }

  @Test func noDetailsFallsBackToTheCustomerReference() throws {
    let run = try Self.read(text: Self.statement(":61:261001D10,00NTRFINV-42"))
    #expect(run.entries.map(\.description) == ["INV-42"])
    #expect(run.entries.map(\.transactionID) == [nil])
  }

  @Test func aStructuredFieldWithAnotherSeparator() throws {
    let run = try Self.read(
      text: Self.statement(":61:261001D10,00NTRFNONREF\n:86:177/00BUCHUNG/20Miete/21 Oktober/32Haus GmbH"))
    #expect(run.entries.map(\.description) == ["Haus GmbH / Miete Oktober"])
  }

  @Test func aDetailsLineStartingWithADashIsText() throws {
    let run = try Self.read(text: Self.statement(":61:261001D10,00NTRFNONREF\n:86:Reparatur\n-Werkstatt Meier\n-"))
    #expect(run.entries.map(\.description) == ["Reparatur -Werkstatt Meier"])
  }

  // MARK: Refusals

  @Test func anEntryLineWithoutDebitOrCredit() throws {
    let issue = try #require(Self.issue(Self.statement(":61:261001X10,00NTRFNONREF")))
    #expect(issue.kind == .badAmount)
    #expect(issue.file == "s.sta")
    #expect(issue.line == 4)
    #expect(issue.columnName == ":61:")
    #expect(issue.rawValue == "261001X10,00NTRFNONREF")
    #expect(issue.message == "the entry is not marked D, C, RD or RC after its dates")
    #expect(
      issue.hint
        == "an entry line reads value date YYMMDD, entry date MMDD (optional), D, C, RD or RC, the amount and the type, e.g. 2610011001D12,50NTRFNONREF"
    )
  }

  @Test func anAmountWithAPoint() throws {
    let issue = try #require(Self.issue(Self.statement(":61:261001D10.00NTRFNONREF")))
    #expect(issue.kind == .badAmount)
    #expect(issue.line == 4)
    #expect(issue.columnName == ":61:")
    #expect(issue.message == "not an amount (MT940 amounts are digits with a decimal comma, e.g. 1234,56)")
  }

  @Test func tooManyDecimals() throws {
    let issue = try #require(
      Self.issue(Self.statement(":61:261001D10,5NTRFNONREF", opening: "C261001JPY100,", closing: "C261001JPY90,")))
    #expect(issue.kind == .badAmount)
    #expect(issue.message == "more decimals than JPY has (0)")
  }

  @Test func aMissingType() throws {
    let issue = try #require(Self.issue(Self.statement(":61:261001D10,00")))
    #expect(issue.kind == .badAmount)
    #expect(issue.message == "the amount is not followed by the type (N, F or S and three characters)")
  }

  @Test func aBadValueDate() throws {
    let issue = try #require(Self.issue(Self.statement(":61:261301D10,00NTRFNONREF")))
    #expect(issue.kind == .badDate)
    #expect(issue.line == 4)
    #expect(issue.columnName == ":61:")
    #expect(issue.message == "the entry's value date is not a date (YYMMDD)")
  }

  @Test func aBadEntryDate() throws {
    let issue = try #require(Self.issue(Self.statement(":61:2610011032D10,00NTRFNONREF")))
    #expect(issue.kind == .badDate)
    #expect(issue.message == "the entry date is not a date (MMDD)")
  }

  @Test func anUnknownCurrency() throws {
    let issue = try #require(Self.issue(Self.statement(":61:261001D10,00NTRFNONREF", opening: "C261001EUX100,00")))
    #expect(issue.kind == .unknownCurrency)
    #expect(issue.line == 3)
    #expect(issue.columnName == ":60F:")
    #expect(issue.rawValue == "C261001EUX100,00")
    #expect(issue.message == "EUX is not an ISO 4217 currency code")
    #expect(
      issue.hint == "a balance reads C or D, the date YYMMDD, the currency and the amount, e.g. C261001EUR1234,56")
  }

  @Test func anEntryBeforeTheOpeningBalance() throws {
    let issue = try #require(Self.issue(":20:T\n:25:X\n:61:261001D10,00NTRFNONREF\n:62F:C261001EUR90,00\n"))
    #expect(issue.kind == .missingRequiredColumn)
    #expect(issue.line == 3)
    #expect(issue.columnName == ":60F:")
    #expect(issue.message == "an entry comes before the statement's opening balance (:60F:)")
  }

  @Test func aStatementWithoutClosingBalance() throws {
    let issue = try #require(Self.issue(":20:T\n:25:X\n:60F:C261001EUR100,00\n:61:261001D10,00NTRFNONREF\n"))
    #expect(issue.kind == .missingRequiredColumn)
    #expect(issue.line == 1)
    #expect(issue.columnName == ":62F:")
    #expect(issue.message == "the statement that starts on line 1 has no closing balance (:62F:)")
    #expect(issue.hint == "the file is cut short; export the statement again")
  }

  @Test func aClosingBalanceThatDoesNotMatch() throws {
    let text = Self.statement(
      ":61:261001D34,56NTRFNONREF\n:86:Entry", opening: "C261001EUR1234,56", closing: "C261001EUR1234,56")
    let issue = try #require(Self.issue(text))
    #expect(issue.kind == .badAmount)
    #expect(issue.line == 6)
    #expect(issue.columnName == ":62F:")
    #expect(issue.rawValue == "C261001EUR1234,56")
    #expect(
      issue.message
        == "the closing balance 1.234,56 EUR does not match the opening balance plus the entries (1.200,00 EUR)")
    #expect(issue.hint == "the file may be cut or edited (entries missing or changed); export the statement again")
  }

  @Test func aFileWithoutStatement() {
    #expect(
      StatementRun.error(MT940Reader.self, Array("Date,Amount\n2026-10-01,12.50\n".utf8), file: "x.csv")
        == .undetectable(
          file: "x.csv", message: "no MT940 statement (:20: … :62F:) in this file",
          hint: "export the statement as MT940 (SWIFT, STA), or import it as CSV"))
  }

  @Test func aFieldTooLong() throws {
    let long = String(repeating: "x", count: 1000)
    let lines = ":61:261001D10,00NTRFNONREF\n:86:" + String(repeating: long + "\n", count: 70)
    let issue = try #require(Self.issue(Self.statement(lines)))
    #expect(issue.kind == .fieldTooLong)
    #expect(issue.line == 5)
    #expect(issue.columnName == ":86:")
  }

  /// A field on one line over the limit is refused as one of many lines is (it was read whole).
  @Test func aOneLineFieldTooLong() throws {
    let lines = ":61:261001D10,00NTRFNONREF\n:86:" + String(repeating: "x", count: 70_000) + "\n"
    let issue = try #require(Self.issue(Self.statement(lines)))
    #expect(issue.kind == .fieldTooLong)
    #expect(issue.line == 5)
    #expect(issue.columnName == ":86:")
  }

  // MARK: Properties

  /// Random entries written as MT940 (structured or free `:86:`, with and without entry dates
  /// and bank references, reversals) read back exactly.
  @Test func randomStatementsReadBack() async {
    await propertyCheck(count: 100, input: Gen.int(in: Int.min...Int.max).array(of: 0...12)) { seeds in
      var lines = [":20:P", ":25:ACC-1", ":60F:C261001EUR0,00"]
      var expected: [StatementEntry] = []
      var balance: Int64 = 0
      let base = CivilDate(year: 2026, month: 10, day: 1) ?? CivilDate.supportedRange.lowerBound
      for (index, seed) in seeds.enumerated() {
        let bits = UInt64(bitPattern: Int64(seed))
        let minor = Int64(bits % 100_000_000)
        let mark = ["D", "C", "RD", "RC"][Int((bits >> 30) % 4)]
        let signed = (mark == "C" || mark == "RD") ? minor : -minor
        let date = base.adding(days: Int((bits >> 33) % 120))
        let words = ["Miete", "Strom", "Café", "Bäcker", "Gehalt", "Kino", "Ärzte 24/7"]
        let text = words[Int((bits >> 40) % 7)] + " " + String(index)
        let structured = (bits >> 44) & 1 == 1
        let withReference = (bits >> 45) & 1 == 1
        let yymmdd = String(format: "%02d%02d%02d", date.year % 100, date.month, date.day)
        let mmdd = (bits >> 46) & 1 == 1 ? String(format: "%02d%02d", date.month, date.day) : ""
        let amountText = "\(minor / 100),\(String(format: "%02d", minor % 100))"
        lines.append(":61:\(yymmdd)\(mmdd)\(mark)\(amountText)NTRFNONREF" + (withReference ? "//R\(index)" : ""))
        lines.append(structured ? ":86:166?00GUTSCHRIFT?20SVWZ+\(text)?32Name \(index)" : ":86:\(text)")
        expected.append(
          StatementEntry(
            line: lines.count - 1, date: date, amount: eur(signed),
            description: structured ? "Name \(index) / \(text)" : text, account: "ACC-1",
            transactionID: withReference ? "R\(index)" : nil))
        balance += signed
      }
      let closing =
        "\(balance < 0 ? "D" : "C")261231EUR\(balance.magnitude / 100),\(String(format: "%02d", balance.magnitude % 100))"
      lines.append(":62F:" + closing)
      do {
        let run = try StatementRun.read(MT940Reader.self, Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(run.entries == expected)
      } catch {
        Issue.record("refused: \(error)")
      }
    }
  }

  @Test func randomBytesNeverCrashTheReader() async {
    let alphabet = Array(":2016F86CD,NTRF/?{}-\n\r0123456789EURX ".utf8)
    await propertyCheck(count: 300, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...300)) { indexes in
      let bytes = Array(":20:X\n:60F:C261001EUR1,00\n".utf8) + indexes.map { alphabet[$0] }
      do {
        _ = try StatementRun.read(MT940Reader.self, bytes)
      } catch let error as ImportError {
        #expect(!error.description.isEmpty)
      } catch {
        Issue.record("unexpected error \(error)")
      }
    }
  }
}

import ExpenseCore
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import ExpenseImport

@Suite struct OFXReaderTests {
  typealias T = StatementTesting

  func read(
    _ text: String, options: ImportOptions = ImportOptions(), chunk: Int? = nil
  ) -> (events: [StatementEvent], settings: [StatementSetting], error: ImportError?) {
    T.run(OFXReader.self, Array(text.utf8), file: "t.ofx", options: options, chunk: chunk)
  }

  /// A 1.x statement around `transactions` (SGML, line ends as given).
  static func sgml(_ transactions: String, currency: String = "USD", newline: String = "\n") -> String {
    let head = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STMTRS>\n"
    let account = "<CURDEF>\(currency)\n<BANKACCTFROM>\n<ACCTID>111\n</BANKACCTFROM>\n<BANKTRANLIST>\n"
    let tail = "</BANKTRANLIST>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n"
    return (head + account + transactions + tail).replacingOccurrences(of: "\n", with: newline)
  }

  // MARK: Fixtures

  @Test func usCheckingSGMLWithCRLF() throws {
    let result = T.run(OFXReader.self, try T.fixture("ofx/us_checking_sgml_102.ofx"), file: "us.ofx")
    #expect(result.error == nil)
    let account = "000123456789"
    #expect(
      T.entries(result.events) == [
        try T.entry(
          43, "2026-10-03", -4217, "USD", "CORNER GROCERY #112 / POS PURCHASE", account: account,
          named: "Checking …6789", id: "202610030001"),
        try T.entry(
          51, "2026-10-05", -125_000, "USD", "CHECK 1043", account: account, named: "Checking …6789", id: "202610050002"
        ),
        try T.entry(
          59, "2026-10-15", 231_055, "USD", "ACME WIDGETS & CO PAYROLL", account: account, named: "Checking …6789",
          id: "202610150003"),
        try T.entry(
          67, "2026-10-31", -500, "USD", "MONTHLY SERVICE FEE", account: account, named: "Checking …6789", id: nil),
      ])
    // LEDGERBAL: $3,013.38 at the end of DTASOF's day, under the masked name the entries store.
    #expect(result.events.count == 5)
    #expect(
      result.events.last
        == .balance(
          StatementBalance(
            account: "Checking …6789", date: try CivilDate.parse("2026-10-31"),
            amount: Money(minor: 301_338, currency: .usd),
            file: "us.ofx", line: 77, source: "OFX LEDGERBAL")))
    #expect(
      result.settings == [
        StatementSetting(name: "format", value: "OFX 1.02 (SGML)", source: "header"),
        StatementSetting(name: "statement", value: "bank", source: "STMTRS"),
        StatementSetting(name: "currency", value: "USD", source: "CURDEF"),
        StatementSetting(name: "account", value: "…6789", source: "BANKACCTFROM/ACCTID, shown by its last 4"),
      ])
  }

  @Test func creditCardQFXWithIntuitTags() throws {
    let result = T.run(OFXReader.self, try T.fixture("ofx/card_quicken.qfx"))
    #expect(result.error == nil)
    let card = "4111222233334444"
    #expect(
      T.entries(result.events) == [
        try T.entry(
          45, "2026-10-03", -1250, "USD", "BLUE BOTTLE COFFEE", account: card, named: "Card …4444",
          id: "2026100324692166276100013498"),
        try T.entry(
          52, "2026-10-09", -8999, "USD", "AMZN Mktp US*2K4L19 / AMZN.COM/BILL WA", account: card, named: "Card …4444",
          id: "2026100924692166282100019283"),
        try T.entry(
          60, "2026-10-20", 50_000, "USD", "PAYMENT - THANK YOU", account: card, named: "Card …4444",
          id: "2026102074692166293100087711"),
        try T.entry(
          67, "2026-10-24", -6400, "USD", "Le Café d'Or", account: card, named: "Card …4444",
          id: "2026102424692166297100045520"),
      ])
    #expect(result.settings.contains(StatementSetting(name: "statement", value: "credit card", source: "CCSTMTRS")))
    #expect(
      result.settings.contains(
        StatementSetting(name: "account", value: "…4444", source: "CCACCTFROM/ACCTID, shown by its last 4")))
  }

  @Test func ofx2XMLWithTwoStatementsPayeeAndCurrency() throws {
    let result = T.run(OFXReader.self, try T.fixture("ofx/ca_savings_xml_220.ofx"))
    #expect(result.error == nil)
    #expect(
      T.entries(result.events) == [
        try T.entry(
          25, "2026-10-02", 25_000, "CAD", "Transfer from chequing / Online banking", account: "5550001",
          named: "Savings …0001", id: "SAV-0001"
        ),
        try T.entry(
          44, "2026-10-17", -3000, "USD", "Bookshop <Seattle> / Card purchase in USD", account: "5550001",
          named: "Savings …0001",
          id: "SAV-0002"),
        try T.entry(
          53, "2026-10-31", 107, "CAD", "Interest", account: "5550001", named: "Savings …0001", id: "SAV-0003"),
        try T.entry(
          78, "2026-10-02", -25_000, "CAD", "Transfer to savings", account: "5550009", named: "Checking …0009",
          id: "CHQ-0001"),
      ])
    #expect(
      result.settings == [
        StatementSetting(name: "format", value: "OFX 2.20 (XML)", source: "header"),
        StatementSetting(name: "statement", value: "bank", source: "STMTRS"),
        StatementSetting(name: "currency", value: "CAD", source: "CURDEF"),
        StatementSetting(name: "account", value: "…0001", source: "BANKACCTFROM/ACCTID, shown by its last 4"),
        StatementSetting(name: "account", value: "…0009", source: "BANKACCTFROM/ACCTID, shown by its last 4"),
      ])
  }

  @Test func oneLineLowerCaseMixedClosing() throws {
    let bytes = try T.fixture("ofx/uk_current_oneline.ofx")
    #expect(!bytes.contains(0x0A) && !bytes.contains(0x0D))
    let result = T.run(OFXReader.self, bytes)
    #expect(result.error == nil)
    #expect(
      T.entries(result.events) == [
        try T.entry(
          1, "2026-10-04", -320, "GBP", "Pret A Manger / CONTACTLESS", account: "31926819", named: "Checking …6819",
          id: "GB-1001"),
        try T.entry(
          1, "2026-10-12", -5400, "GBP", "Thames Water", account: "31926819", named: "Checking …6819", id: "GB-1002"),
      ])
    #expect(result.settings.first == StatementSetting(name: "format", value: "OFX 1.03 (SGML)", source: "header"))
  }

  @Test func europeanCommaDecimalsBOMAndOrigCurrency() throws {
    let result = T.run(OFXReader.self, try T.fixture("ofx/fr_compte_comma.ofx"))
    #expect(result.error == nil)
    let account = "00012345678"
    #expect(
      T.entries(result.events) == [
        try T.entry(
          41, "2026-10-06", -2345, "EUR", "CB BOULANGERIE ÉTOILE / 05/10/26 PARIS", account: account,
          named: "Checking …5678", id: "8G3KZ1"),
        try T.entry(
          50, "2026-10-13", -123_450, "EUR", "PRLV LOYER OCTOBRE", account: account, named: "Checking …5678",
          id: "8G3KZ2"),
        try T.entry(
          57, "2026-10-19", -4510, "EUR", "CB AMAZON UK / 38,99 GBP", account: account, named: "Checking …5678",
          id: "8G3KZ3"),
        try T.entry(
          69, "2026-10-28", 285_000, "EUR", "VIR SALAIRE OCTOBRE", account: account, named: "Checking …5678",
          id: "8G3KZ4"),
      ])
  }

  /// Every fixture read a few bytes at a time gives the same events: nothing depends on where
  /// the buffer is refilled.
  @Test(arguments: [
    "us_checking_sgml_102.ofx", "card_quicken.qfx", "ca_savings_xml_220.ofx", "uk_current_oneline.ofx",
    "fr_compte_comma.ofx",
  ])
  func fixturesReadInSmallChunks(_ name: String) throws {
    let bytes = try T.fixture("ofx/" + name)
    let whole = T.run(OFXReader.self, bytes)
    for chunk in [1, 2, 3, 7] {
      let pieces = T.run(OFXReader.self, bytes, chunk: chunk)
      #expect(pieces.events == whole.events && pieces.error == nil, "chunk \(chunk)")
      #expect(pieces.settings == whole.settings)
    }
  }

  // MARK: Behaviour

  @Test func pendingTransactionsAreExcluded() throws {
    let text = OFXReaderTests.sgml(
      """
      <STMTTRN>
      <DTPOSTED>20261003
      <TRNAMT>-1.00
      <NAME>booked
      </STMTTRN>
      </BANKTRANLIST>
      <PENDINGTRNLIST>
      <STMTTRN>
      <TRNAMT>-2.00
      <NAME>pending one
      </STMTTRN>
      <PENDINGTRN>
      <DTTRAN>20261004
      <TRNAMT>-3.00
      </PENDINGTRN>
      </PENDINGTRNLIST>
      <BANKTRANLIST>

      """)
    let result = read(text)
    #expect(result.error == nil)
    #expect(result.events.count == 3)
    #expect(
      T.entries(result.events) == [
        try T.entry(14, "2026-10-03", -100, "USD", "booked", account: "111", named: "Account 111")
      ])
    guard result.events.count == 3, case .excluded(let line, let reason) = result.events[1],
      case .excluded(let line2, _) = result.events[2]
    else {
      Issue.record("expected two exclusions: \(result.events)")
      return
    }
    #expect(line == 21 && line2 == 25)
    #expect(reason.hasPrefix("pending"))
  }

  @Test func accountOptionWinsAndIsASetting() throws {
    var options = ImportOptions()
    options.account = "Joint checking"
    let result = read(OFXReaderTests.sgml("<STMTTRN><DTPOSTED>20261003<TRNAMT>-1<NAME>x</STMTTRN>\n"), options: options)
    #expect(T.entries(result.events).map(\.account) == ["Joint checking"])
    #expect(result.settings.contains(StatementSetting(name: "account", value: "Joint checking", source: "--account")))
    #expect(!result.settings.contains { $0.source.hasPrefix("BANKACCTFROM/ACCTID") })
  }

  @Test func referencesCDATACommentsAndEmptyLeaves() throws {
    let text = OFXReaderTests.sgml(
      """
      <!-- a comment with <TAGS> inside -->
      <STMTTRN>
      <DTPOSTED>20261003
      <MEMO>
      <TRNAMT>-1.5
      <FITID>
      <NAME>A&amp;B &#65;&#x42; AT&T &#0; &lt;x&gt;
      </STMTTRN>
      <STMTTRN>
      <DTPOSTED>20261004<TRNAMT>2<NAME><![CDATA[Fish & <Chips>]]></NAME><MEMO>m</MEMO>
      </STMTTRN>

      """)
    let result = read(text)
    #expect(result.error == nil)
    #expect(
      T.entries(result.events) == [
        try T.entry(15, "2026-10-03", -150, "USD", "A&B AB AT&T &#0; <x>", account: "111", named: "Account 111"),
        try T.entry(22, "2026-10-04", 200, "USD", "Fish & <Chips> / m", account: "111", named: "Account 111"),
      ])
  }

  /// A value runs across comments and CDATA sections, as XML's character data does: it was
  /// read up to the first of them, the rest lost. Read a byte at a time too, so that `<!--` and
  /// `<![CDATA[` are met cut across the tokenizer's refills.
  @Test func aValueRunsAcrossCommentsAndCDATASections() throws {
    let text = OFXReaderTests.sgml(
      """
      <STMTTRN><DTPOSTED>20261003</DTPOSTED><TRNAMT>-1</TRNAMT>
      <NAME>AT<!-- the bank's note -->&amp;T <![CDATA[<Inc> & co]]> Ltd</NAME>
      <MEMO><![CDATA[&amp;]]>&#233;<!--
      two lines
      --> &lt;end&gt; </MEMO></STMTTRN>
      <STMTTRN><DTPOSTED>20261004</DTPOSTED><TRNAMT>2</TRNAMT><NAME> <!-- c --> <![CDATA[ x ]]> </NAME></STMTTRN>

      """)
    for chunk in [nil, 1, 2, 5] {
      let result = read(text, chunk: chunk)
      #expect(result.error == nil, "chunks of \(chunk ?? 0)")
      #expect(
        T.entries(result.events) == [
          try T.entry(
            14, "2026-10-03", -100, "USD", "AT&T <Inc> & co Ltd / &amp;é <end>", account: "111", named: "Account 111"),
          try T.entry(19, "2026-10-04", 200, "USD", "x", account: "111", named: "Account 111"),
        ], "chunks of \(chunk ?? 0)")
    }
  }

  /// An entity that is not defined is refused inside such a value too, on its own line (the
  /// CDATA section before it holds a line end: line 16, not the transaction's 14).
  @Test func anUndefinedEntityAfterACDATASectionIsRefusedOnItsLine() {
    let text = OFXReaderTests.sgml(
      "<STMTTRN><DTPOSTED>20261003<TRNAMT>-1<NAME><![CDATA[a\nb]]>\n&amp; &copy;</NAME></STMTTRN>\n")
    #expect(
      read(text).error
        == .malformed(
          file: "t.ofx", line: 16,
          message: "a reference to the entity &copy; that is not defined (only &amp; &lt; &gt; &quot; &apos; are)",
          hint: "OFX defines no other entity and none is looked up: the file is damaged or not a bank's export"))
  }

  /// Text right after a transaction's tag (`<STMTTRN>x<TRNTYPE>`) is no value: it took the
  /// transaction for a leaf, closed it, and the transaction was lost with no error.
  @Test func textRightAfterAnAggregateLosesNoTransaction() throws {
    for leaf in ["</NAME>", ""] {
      let text = OFXReaderTests.sgml(
        """
        <STMTTRN>stray<DTPOSTED>20261003<TRNAMT>-1<NAME>first\(leaf)</STMTTRN>
        <STMTTRN> x <DTPOSTED>20261004<TRNAMT>-2<NAME>second\(leaf)</STMTTRN>

        """)
      let result = read(text)
      #expect(result.error == nil)
      #expect(
        T.entries(result.events) == [
          try T.entry(14, "2026-10-03", -100, "USD", "first", account: "111", named: "Account 111"),
          try T.entry(15, "2026-10-04", -200, "USD", "second", account: "111", named: "Account 111"),
        ])
    }
  }

  @Test func lineEndsOfEveryKind() throws {
    let transactions = "<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n<NAME>x\n</STMTTRN>\n"
    for newline in ["\n", "\r\n", "\r"] {
      let result = read(OFXReaderTests.sgml(transactions, newline: newline))
      #expect(T.entries(result.events).map(\.line) == [14], "\(Array(newline.utf8))")
    }
  }

  @Test func signsDecimalsAndCurrencyExponents() throws {
    func amount(_ raw: String, _ currency: String = "USD") -> Int64? {
      let text = OFXReaderTests.sgml("<STMTTRN><DTPOSTED>20261003<TRNAMT>\(raw)<NAME>x</STMTTRN>\n", currency: currency)
      return T.entries(read(text).events).first?.amount.minor
    }
    #expect(amount("+12.5") == 1250)
    #expect(amount(" -0.07 ") == -7)
    #expect(amount(".5") == 50)
    #expect(amount("-12,50") == -1250)
    #expect(amount("-12.5000") == -1250)
    #expect(amount("1500", "JPY") == 1500)
    #expect(amount("-1.250", "BHD") == -1250)
  }

  @Test func currencyOptionFillsAMissingCURDEF() throws {
    let text =
      "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><DTPOSTED>20261003<TRNAMT>-1<NAME>x"
      + "</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
    var options = ImportOptions()
    options.currency = "EUR"
    let result = read(text, options: options)
    #expect(T.entries(result.events).map(\.amount) == [Money(minor: -100, currency: .eur)])
    #expect(result.settings.first == StatementSetting(name: "format", value: "OFX (SGML)", source: "no header"))
  }

  // MARK: Refusals

  func refusal(_ text: String, options: ImportOptions = ImportOptions()) -> ImportIssue? {
    read(text, options: options).error?.issue
  }

  func transaction(_ body: String) -> String { OFXReaderTests.sgml("<STMTTRN>\n" + body + "</STMTTRN>\n") }

  @Test func refusesABadAmount() throws {
    let issue = try #require(refusal(transaction("<DTPOSTED>20261003\n<TRNAMT>12.5O\n<NAME>x\n")))
    #expect(issue.kind == .badAmount)
    #expect(issue.line == 16 && issue.columnName == "TRNAMT" && issue.rawValue == "12.5O")
    #expect(issue.message == "not an amount")
    #expect(issue.hint == "TRNAMT is a signed number such as -12.50 (or -12,50); the file may be damaged")
    #expect(issue.file == "t.ofx")
  }

  @Test func refusesMoreDecimalsThanTheCurrencyHas() throws {
    let issue = try #require(refusal(transaction("<DTPOSTED>20261003\n<TRNAMT>-12.505\n")))
    #expect(issue.kind == .badAmount && issue.line == 16 && issue.columnName == "TRNAMT")
    #expect(issue.message == "more decimals than USD has (2)")
    #expect(issue.hint == "the amount would have to be rounded; check the file's CURDEF or the transaction's currency")
  }

  @Test func refusesAnAmountTooLarge() throws {
    let issue = try #require(refusal(transaction("<DTPOSTED>20261003\n<TRNAMT>99999999999999999999\n")))
    #expect(issue.kind == .badAmount && issue.message == "the amount is too large")
  }

  @Test func refusesABadDate() throws {
    let issue = try #require(refusal(transaction("<DTPOSTED>20261332\n<TRNAMT>-1\n")))
    #expect(issue.kind == .badDate && issue.line == 15 && issue.columnName == "DTPOSTED")
    #expect(issue.rawValue == "20261332" && issue.message == "not an OFX date")
    #expect(
      issue.hint
        == "OFX dates are YYYYMMDD, optionally with a time such as 20261003120000.000[-5:EST]: the file may be damaged")
    #expect(refusal(transaction("<DTPOSTED>2026-10-03\n<TRNAMT>-1\n"))?.kind == .badDate)
    #expect(refusal(transaction("<DTPOSTED>20261003 12:00\n<TRNAMT>-1\n"))?.kind == .badDate)
  }

  @Test func refusesADateOutsideTheSupportedRange() throws {
    let issue = try #require(refusal(transaction("<DTPOSTED>18991231\n<TRNAMT>-1\n")))
    #expect(issue.kind == .badDate && issue.message == "the date is outside 1900–2999")
    #expect(issue.hint == "check the date in the file: no statement holds such a date")
  }

  @Test func refusesATransactionWithoutDTPOSTED() throws {
    let issue = try #require(refusal(transaction("<TRNAMT>-1\n<NAME>x\n")))
    #expect(issue.kind == .missingRequiredColumn && issue.line == 14 && issue.columnName == "DTPOSTED")
    #expect(issue.message == "the transaction has no DTPOSTED")
    #expect(issue.hint == "every transaction needs DTPOSTED and TRNAMT: the file may be damaged; export it again")
  }

  @Test func refusesATransactionWithoutTRNAMT() throws {
    let issue = try #require(refusal(transaction("<DTPOSTED>20261003\n<TRNAMT>\n<NAME>x\n")))
    #expect(issue.kind == .missingRequiredColumn && issue.line == 14 && issue.columnName == "TRNAMT")
    #expect(issue.message == "the transaction has no TRNAMT")
  }

  @Test func refusesAnUnknownCURDEF() throws {
    let issue = try #require(refusal(OFXReaderTests.sgml("", currency: "USX")))
    #expect(
      issue.kind == .unknownCurrency && issue.line == 9 && issue.columnName == "CURDEF" && issue.rawValue == "USX")
    #expect(issue.message == "not an ISO 4217 currency code")
    #expect(issue.hint == "CURDEF names the statement's currency, such as USD or EUR: the file may be damaged")
  }

  @Test func refusesAnUnknownTransactionCurrency() throws {
    let issue = try #require(
      refusal(transaction("<DTPOSTED>20261003\n<TRNAMT>-1\n<CURRENCY>\n<CURRATE>1\n<CURSYM>EU\n</CURRENCY>\n")))
    #expect(
      issue.kind == .unknownCurrency && issue.line == 19 && issue.columnName == "CURSYM" && issue.rawValue == "EU")
  }

  @Test func refusesAValueOverTheFieldLimit() throws {
    let long = String(repeating: "x", count: ImportLimits.maxFieldBytes + 10)
    let issue = try #require(refusal(transaction("<DTPOSTED>20261003\n<TRNAMT>-1\n<MEMO>\(long)\n")))
    #expect(issue.kind == .fieldTooLong && issue.line == 17 && issue.columnName == "MEMO")
    #expect(issue.message == "the value is \(ImportLimits.maxFieldBytes + 10) bytes; the limit is 64 KiB")
    #expect(issue.hint == "no bank writes a value this long: the file may be damaged, or it is not an OFX file")
  }

  @Test func refusesAFileWithoutAStatement() throws {
    let text =
      "OFXHEADER:100\nVERSION:102\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500</STATUS></SONRS></SIGNONMSGSRSV1></OFX>"
    #expect(
      read(text).error
        == .undetectable(
          file: "t.ofx", message: "no bank or credit card statement in the file (no <STMTRS> or <CCSTMTRS>)",
          hint: "export a bank or credit card statement; investment statements are not read"))
  }

  @Test func refusesAFileThatEndsInsideATransaction() throws {
    let text = OFXReaderTests.sgml("<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n")
    let cut = String(text.dropLast("</BANKTRANLIST>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n".count))
    let result = read(cut)
    #expect(
      result.error
        == .undetectable(
          file: "t.ofx", message: "the file ends inside a transaction (the <STMTTRN> on line 14 is never closed)",
          hint: "the file is truncated: download the statement again"))
    #expect(result.events.isEmpty)
  }

  @Test func refusesAFileThatEndsBeforeItsStatementCloses() throws {
    let text = OFXReaderTests.sgml("<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n</STMTTRN>\n")
    let cut = String(text.dropLast("</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n".count))
    #expect(
      read(cut).error
        == .undetectable(
          file: "t.ofx", message: "the file ends before </STMTRS> (opened on line 8)",
          hint: "the file is truncated: download the statement again"))
  }

  @Test func refusesAFileThatEndsInsideATag() throws {
    let text = OFXReaderTests.sgml("<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n</STMTTRN>\n")
    let cut = String(text.prefix(text.count - "V1>\n</OFX>\n".count))
    #expect(
      read(cut).error
        == .undetectable(
          file: "t.ofx", message: "the file ends inside a tag that starts on line 21",
          hint: "the file is truncated: download the statement again"))
  }

  @Test func refusesACurrencyOptionThatContradictsCURDEF() throws {
    var options = ImportOptions()
    options.currency = "EUR"
    #expect(
      read(OFXReaderTests.sgml(""), options: options).error
        == .undetectable(
          file: "t.ofx", message: "the file says its amounts are in USD (CURDEF, line 9), but --currency says EUR",
          hint: "drop --currency to use USD, or check that this is the file you meant"))
  }

  @Test func refusesAMissingCURDEFWithoutCurrencyOption() throws {
    let text =
      "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><DTPOSTED>20261003<TRNAMT>-1"
      + "</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
    #expect(
      read(text).error
        == .undetectable(
          file: "t.ofx", message: "line 1: the statement names no currency (no CURDEF before its transactions)",
          hint: "give the currency with --currency"))
  }

  // MARK: Properties

  /// Random bytes changed, inserted or removed in every fixture: the reader ends with events
  /// or an `ImportError`, never a crash or another error.
  @Test func mutatedFixturesReadOrFailCleanly() throws {
    let names = ["us_checking_sgml_102.ofx", "card_quicken.qfx", "ca_savings_xml_220.ofx", "uk_current_oneline.ofx"]
    let fixtures = try names.map { try T.fixture("ofx/" + $0) }
    let alphabet = Array("<>/&;#x\r\n .,-+0123456789[]:!?-ABCDEFGHSTMTRN".utf8) + [0xFF, 0xEF, 0xBB, 0xBF]
    T.readsMutatedFixturesCleanly(OFXReader.self, fixtures, alphabet: alphabet)
  }

  /// Random transactions written as OFX 1.x (SGML, with any line ends or none, closed or open
  /// leaves, `,` or `.` as decimal mark) and 2.x (XML) read back exactly.
  @Test func randomStatementsRoundTrip() async {
    await propertyCheck(count: 120, input: Gen.int(in: 0...Int.max)) { seed in
      var random = SeededRandom(state: UInt64(seed))
      let statement = RandomStatement(&random)
      for xml in [false, true] {
        let text = statement.ofx(xml: xml, &random)
        let result = T.run(OFXReader.self, Array(text.utf8), chunk: random.int(1...4096))
        #expect(result.error == nil, "\(String(describing: result.error))\n\(text)")
        let read = T.entries(result.events).map {
          var entry = $0
          entry.line = 0
          return entry
        }
        #expect(read == statement.expected(), "\(text)")
      }
    }
  }
}

/// A statement of random transactions, written as OFX or QIF by the property tests.
struct RandomStatement {
  struct Transaction {
    var date: CivilDate
    var minor: Int64
    var name: String
    var memo: String
    var fitID: String
  }

  var currency: Currency
  var account: String
  var transactions: [Transaction]

  static let letters = Array("abcXYZ019 &<>'\"éß€-/.,#*")

  static func text(_ random: inout SeededRandom, _ range: ClosedRange<Int>) -> String {
    let raw = String((0..<random.int(range)).map { _ in letters[random.int(0...(letters.count - 1))] })
    return raw.trimmingASCIIWhitespace()
  }

  init(_ random: inout SeededRandom) {
    let currencies: [Currency] = [.usd, .eur, .jpy, Currency(code: "BHD") ?? .usd, Currency(code: "GBP") ?? .usd]
    currency = currencies[random.int(0...(currencies.count - 1))]
    account = "ACCT" + String(random.int(1...99_999))
    transactions = (0..<random.int(0...12)).map { index in
      let day = CivilDate(daysSinceEpoch: random.int(-25_567...375_000))
      let magnitude = Int64(random.int(0...2_000_000_000))
      var name = RandomStatement.text(&random, 1...20)
      if name.isEmpty { name = "n" }
      let memo = random.int(0...2) == 0 ? "" : RandomStatement.text(&random, 0...30)
      return Transaction(
        date: day, minor: random.int(0...1) == 0 ? -magnitude : magnitude, name: name, memo: memo,
        fitID: "F\(index)-\(random.int(0...999_999))")
    }
  }

  func decimal(_ minor: Int64, comma: Bool) -> String {
    let text = Money(minor: minor, currency: currency).decimalString
    return comma ? text.replacingOccurrences(of: ".", with: ",") : text
  }

  static func escaped(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  func description(_ t: Transaction) -> String {
    t.memo.isEmpty || t.memo == t.name ? t.name : t.name + " / " + t.memo
  }

  /// What the OFX reader must give back; lines are not compared (set to 0).
  func expected() -> [StatementEntry] {
    transactions.map {
      var entry = StatementEntry(
        line: 0, date: $0.date, amount: Money(minor: $0.minor, currency: currency), description: description($0),
        account: account, transactionID: $0.fitID)
      entry.accountName = "Account " + (account.count <= 4 ? account : "…" + String(account.suffix(4)))
      return entry
    }
  }

  func ofx(xml: Bool, _ random: inout SeededRandom) -> String {
    let newline = xml ? "\n" : ["\n", "\r\n", "", " "][random.int(0...3)]
    let comma = !xml && random.int(0...3) == 0
    var out =
      xml
      ? "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"211\"?>\n"
      : "OFXHEADER:100\(newline.isEmpty ? " " : newline)VERSION:102\(newline)"
    func leaf(_ tag: String, _ value: String) {
      let closed = xml || random.int(0...1) == 0
      let tagName = random.int(0...4) == 0 ? tag.lowercased() : tag
      out += "<\(tagName)>\(RandomStatement.escaped(value))" + (closed ? "</\(tagName)>" : "") + newline
    }
    out += "<OFX>\(newline)<BANKMSGSRSV1><STMTTRNRS><STMTRS>\(newline)"
    leaf("CURDEF", currency.code)
    out += "<BANKACCTFROM>"
    leaf("ACCTID", account)
    out += "</BANKACCTFROM><BANKTRANLIST>\(newline)"
    for t in transactions {
      out += "<STMTTRN>\(newline)"
      leaf("TRNTYPE", t.minor < 0 ? "DEBIT" : "CREDIT")
      leaf(
        "DTPOSTED",
        String(format: "%04d%02d%02d", t.date.year, t.date.month, t.date.day)
          + ["", "120000.000[-5:EST]"][random.int(0...1)])
      leaf("TRNAMT", decimal(t.minor, comma: comma))
      leaf("FITID", t.fitID)
      leaf("NAME", t.name)
      if !t.memo.isEmpty { leaf("MEMO", t.memo) }
      out += "</STMTTRN>\(newline)"
    }
    out += "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\(newline)"
    return out
  }
}

import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Reads statement files with a reader and keeps what it reports.
struct StatementRun {
  var events: [StatementEvent] = []
  var settings: [StatementSetting] = []

  var entries: [StatementEntry] {
    events.compactMap { if case .entry(let entry) = $0 { return entry } else { return nil } }
  }

  /// A rejected entry stops the run as it stops an import, unless `skipInvalid`.
  static func read<R: StatementReader>(
    _ type: R.Type, _ bytes: [UInt8], file: String = "t", options: ImportOptions = ImportOptions(),
    skipInvalid: Bool = false
  ) throws -> StatementRun {
    var reader = R(file: file, options: options, defaultCurrency: .usd)
    var run = StatementRun()
    defer { run.settings = reader.settings }
    try reader.read(MemorySource(bytes)) { event in
      if !skipInvalid, case .rejected(let issue) = event { throw ImportError.row(issue) }
      run.events.append(event)
    }
    run.settings = reader.settings
    return run
  }

  /// The `ImportError` reading throws (a test failure when it throws none or another error).
  static func error<R: StatementReader>(
    _ type: R.Type, _ bytes: [UInt8], file: String = "t", sourceLocation: SourceLocation = #_sourceLocation
  ) -> ImportError? {
    do {
      _ = try read(type, bytes, file: file)
      Issue.record("no error", sourceLocation: sourceLocation)
    } catch let error as ImportError {
      return error
    } catch {
      Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }

  static func fixture(_ folder: String, _ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/statements/\(folder)/\(name)")
    return Array(try Data(contentsOf: url))
  }
}

func eur(_ minor: Int64) -> Money { Money(minor: minor, currency: .eur) }

func day(_ text: String) throws -> CivilDate { try CivilDate.parse(text) }

@Suite struct CAMT053ReaderTests {
  static func read(_ name: String, options: ImportOptions = ImportOptions()) throws -> StatementRun {
    try StatementRun.read(CAMT053Reader.self, try StatementRun.fixture("camt053", name), file: name, options: options)
  }

  /// A one-statement document around the given `Ntry` elements (one line each element, so a
  /// test can count lines: the first `Ntry` starts on line 6).
  static func document(_ entries: String, version: String = "02") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.\(version)">
      <BkToCstmrStmt>
      <Stmt>
      <Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy></Acct>
      \(entries)
      </Stmt>
      </BkToCstmrStmt>
      </Document>

      """.utf8)
  }

  static func entry(
    amount: String = "<Amt Ccy=\"EUR\">10.00</Amt>", indicator: String = "<CdtDbtInd>DBIT</CdtDbtInd>",
    date: String = "<BookgDt><Dt>2026-10-01</Dt></BookgDt>", extra: String = ""
  ) -> String {
    "<Ntry>\n\(amount)\n\(indicator)\n<Sts>BOOK</Sts>\n\(date)\n\(extra)\n</Ntry>"
  }

  static func issue(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> ImportIssue? {
    StatementRun.error(CAMT053Reader.self, bytes, file: "s.xml", sourceLocation: sourceLocation)?.issue
  }

  // MARK: Fixtures

  @Test func germanSavingsBankWithABatch() throws {
    let run = try Self.read("sparkasse-001-02-batch.xml")
    let iban = "DE02120300000000202051"
    #expect(
      run.entries == [
        StatementEntry(
          line: 29, date: try day("2026-10-30"), amount: eur(-5420),
          description: "REWE Markt GmbH / Kartenzahlung 29.10.2026 Filiale 4711 Muenchen", account: iban,
          transactionID: "2026103012345678"),
        StatementEntry(
          line: 55, date: try day("2026-10-30"), amount: eur(245000), description: "Beispiel AG / Gehalt Oktober 2026",
          account: iban, transactionID: "2026103012345679"),
        StatementEntry(
          line: 85, date: try day("2026-10-31"), amount: eur(-10000),
          description: "Stadtwerke Musterstadt / Abschlag Strom November", account: iban,
          transactionID: "RG-2026-1001"),
        StatementEntry(
          line: 95, date: try day("2026-10-31"), amount: eur(-3050),
          description: "Telekom Deutschland GmbH / Rechnung 10/2026", account: iban,
          transactionID: "2026103112340001/2"),
      ])
    // The previously closed booked balance (PRCD) of 31 October, at the end of that day.
    #expect(run.events.count == 5)
    #expect(
      run.events.first
        == .balance(
          StatementBalance(
            account: iban, date: try day("2026-10-31"), amount: eur(152_000), file: "sparkasse-001-02-batch.xml",
            line: 25, source: "CAMT.053 PRCD")))
    #expect(
      run.settings == [
        StatementSetting(name: "format", value: "CAMT.053.001.02", source: "namespace"),
        StatementSetting(name: "account", value: iban, source: "Acct/Id/IBAN"),
        StatementSetting(name: "currency", value: "EUR", source: "Acct/Ccy"),
        StatementSetting(name: "statements", value: "1", source: "Stmt"),
      ])
  }

  @Test func dutchVersion08WithTwoStatements() throws {
    let run = try Self.read("ing-nl-001-08-two-statements.xml")
    #expect(
      run.entries == [
        StatementEntry(
          line: 9, date: try day("2026-11-01"), amount: eur(-375), description: "Bakkerij de Vries",
          account: "NL91ABNA0417164300", transactionID: "NL-20261101-000001"),
        StatementEntry(
          line: 24, date: try day("2026-11-01"), amount: eur(120000), description: "J. Jansen / Huur november",
          account: "NL91ABNA0417164300", transactionID: "NL-20261101-000002"),
        StatementEntry(
          line: 42, date: try day("2026-11-01"), amount: eur(-1999), description: "Abonnement streaming",
          account: "BE68 5390 0754 7034", transactionID: nil),
      ])
    #expect(
      run.settings == [
        StatementSetting(name: "format", value: "CAMT.053.001.08", source: "namespace"),
        StatementSetting(name: "account", value: "NL91ABNA0417164300, BE68 5390 0754 7034", source: "Acct/Id/IBAN"),
        StatementSetting(name: "currency", value: "EUR", source: "Acct/Ccy"),
        StatementSetting(name: "statements", value: "2", source: "Stmt"),
      ])
  }

  @Test func pendingAndInformationEntriesAreExcludedAndAReversalIsMarked() throws {
    let run = try Self.read("pending-reversal-001-04.xml")
    let iban = "AT611904300234573201"
    #expect(
      run.events == [
        .excluded(line: 8, reason: "status PDNG (pending), not booked"),
        .entry(
          StatementEntry(
            line: 15, date: try day("2026-10-02"), amount: eur(-4590),
            description: "Fitnessstudio Aktiv / Mitgliedsbeitrag Oktober", account: iban, transactionID: "AT-0002")),
        .entry(
          StatementEntry(
            line: 26, date: try day("2026-10-04"), amount: eur(4590),
            description: "Reversal: Fitnessstudio Aktiv / Ruecklastschrift Mitgliedsbeitrag", account: iban,
            transactionID: "AT-0003")),
        .excluded(line: 38, reason: "status INFO (information only), not booked"),
      ])
    #expect(run.settings.first == StatementSetting(name: "format", value: "CAMT.053.001.04", source: "namespace"))
  }

  @Test func latin1DeclaredFileKeepsItsUmlauts() throws {
    let run = try Self.read("latin1-001-02-umlauts.xml")
    #expect(
      run.entries == [
        StatementEntry(
          line: 6, date: try day("2026-09-15"), amount: eur(-2340),
          description: "Bäckerei Müller & Söhne / Brötchen für das Büro, Grüße", account: "DE89370400440532013000",
          transactionID: "LAT1-0001")
      ])
  }

  @Test func theAccountOptionWins() throws {
    var options = ImportOptions()
    options.account = "Girokonto"
    let run = try Self.read("latin1-001-02-umlauts.xml", options: options)
    #expect(run.entries.map(\.account) == ["Girokonto"])
    #expect(run.settings.contains(StatementSetting(name: "account", value: "Girokonto", source: "--account")))
  }

  @Test func aByteOrderMarkAndAPrefixAreRead() throws {
    let body = Self.document(Self.entry()).map { $0 }
    let text = String(decoding: body, as: UTF8.self).replacingOccurrences(
      of: "<Document xmlns=", with: "<c:Document xmlns:c="
    )
    .replacingOccurrences(of: "<BkToCstmrStmt>", with: "<c:BkToCstmrStmt>")
    .replacingOccurrences(of: "</BkToCstmrStmt>", with: "</c:BkToCstmrStmt>")
    .replacingOccurrences(of: "</Document>", with: "</c:Document>")
    let bytes = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
    let run = try StatementRun.read(CAMT053Reader.self, bytes)
    #expect(run.entries.map(\.amount) == [eur(-1000)])
  }

  /// An account report (CAMT.052, `BkToCstmrAcctRpt/Rpt`) carries the statement's entries:
  /// read the same way, in Latin-1 too, and said to be CAMT.052. It was refused as a CSV
  /// file with no date column.
  @Test func anAccountReportCAMT052IsReadLikeAStatement() throws {
    let text = String(
      decoding: Self.document(Self.entry(extra: "<AddtlNtryInf>Gebühr März</AddtlNtryInf>")), as: UTF8.self
    )
    .replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")
    .replacingOccurrences(of: "camt.053.001.02", with: "camt.052.001.02")
    .replacingOccurrences(of: "BkToCstmrStmt>", with: "BkToCstmrAcctRpt>")
    .replacingOccurrences(of: "Stmt>", with: "Rpt>")
    let bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    #expect(StatementFormat.sniff(bytes) == .camt053)
    let run = try StatementRun.read(CAMT053Reader.self, bytes)
    #expect(run.entries.map(\.amount) == [eur(-1000)])
    #expect(run.entries.map(\.description) == ["Gebühr März"])
    #expect(run.settings.contains(StatementSetting(name: "format", value: "CAMT.052.001.02", source: "namespace")))
  }

  @Test func aUTF16FileIsRead() throws {
    let text = String(decoding: Self.document(Self.entry(extra: "<AddtlNtryInf>Café</AddtlNtryInf>")), as: UTF8.self)
      .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let run = try StatementRun.read(CAMT053Reader.self, bytes)
    #expect(run.entries.map(\.description) == ["Café"])
    #expect(run.entries.map(\.line) == [6])
  }

  /// The reader hands out each entry as its `Ntry` ends, long before the file is read.
  @Test func entriesStreamBeforeTheFileIsRead() throws {
    let entries = String(repeating: Self.entry() + "\n", count: 20_000)
    let source = ChunkSource(Self.document(entries), chunk: .max)  // tells how far it was read
    var reader = CAMT053Reader(file: "big.xml", options: ImportOptions(), defaultCurrency: .usd)
    var readAtFirst: Int?
    var count = 0
    try reader.read(source) { _ in
      if readAtFirst == nil { readAtFirst = source.offset }
      count += 1
    }
    #expect(count == 20_000)
    #expect((readAtFirst ?? .max) < source.bytes.count / 4)
  }

  // MARK: Refusals

  @Test func aBillionLaughsFileIsRefusedAtItsDeclarationAndNotExpanded() throws {
    var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
    text += "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
    for n in 2...9 { text += "<!ENTITY lol\(n) \"" + String(repeating: "&lol\(n - 1);", count: 10) + "\">\n" }
    text += "]>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>"
    text += "<Stmt><Ntry><AddtlNtryInf>&lol9;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>\n"
    #expect(text.utf8.count < 1100)
    // Refused at the declaration, before any entity is expanded (no clock: the line named is
    // the DTD's, which a reader that expanded first could not name).
    let error = StatementRun.error(CAMT053Reader.self, Array(text.utf8), file: "lol.xml")
    #expect(
      error
        == .malformed(
          file: "lol.xml", line: 2, message: "the file declares a DTD or entities, which are not read (for safety)",
          hint:
            "a bank's CAMT.053 export has no <!DOCTYPE> or <!ENTITY>: export the statement again, or remove that declaration if you know the file"
        ))
  }

  @Test func anExternalEntityIsRefusedBeforeAnyFileIsRead() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE d [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
      <Document><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>&secret;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>
      """
    let error = StatementRun.error(CAMT053Reader.self, Array(text.utf8))
    guard case .malformed(_, let line, let message, _) = error else {
      Issue.record("not refused: \(String(describing: error))")
      return
    }
    #expect(message == "the file declares a DTD or entities, which are not read (for safety)")
    #expect(line == 2)
  }

  @Test func aDeclarationInUTF16IsSeenToo() {
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE d [<!ENTITY x \"y\">]><Document/>"
    var bytes: [UInt8] = [0xFE, 0xFF]
    for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    guard case .malformed(_, let line, let message, _) = StatementRun.error(CAMT053Reader.self, bytes) else {
      Issue.record("not refused")
      return
    }
    #expect(message.contains("DTD"))
    #expect(line == 1)
  }

  @Test func anEncodingThatCouldHideMarkupIsRefused() {
    let text = "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n<Document/>"
    #expect(
      StatementRun.error(CAMT053Reader.self, Array(text.utf8), file: "u7.xml")
        == .undetectable(
          file: "u7.xml", message: "the file declares the encoding \"utf-7\", which is not read",
          hint: "a CAMT.053 file is UTF-8 (or ISO-8859-1, windows-1252, UTF-16); export it again in UTF-8"))
  }

  @Test func anAmountThatIsNotANumber() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(amount: "<Amt Ccy=\"EUR\">12,50</Amt>"))))
    #expect(issue.kind == .badAmount)
    #expect(issue.file == "s.xml")
    #expect(issue.line == 7)
    #expect(issue.columnName == "Ntry/Amt")
    #expect(issue.rawValue == "12,50")
    #expect(issue.message == "not an amount (a CAMT amount is digits with a '.' such as 12.50)")
    #expect(issue.hint == "the file is damaged or edited; export the statement again")
  }

  @Test func moreDecimalsThanTheCurrencyHas() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(amount: "<Amt Ccy=\"JPY\">1200.5</Amt>"))))
    #expect(issue.kind == .badAmount)
    #expect(issue.line == 7)
    #expect(issue.rawValue == "1200.5")
    #expect(issue.message == "more decimals than JPY has (0)")
  }

  @Test func aMissingAmount() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(amount: ""))))
    #expect(issue.kind == .missingRequiredColumn)
    #expect(issue.line == 6)
    #expect(issue.columnName == "Ntry/Amt")
    #expect(issue.message == "the entry has no amount")
    #expect(issue.hint == "the file is damaged or cut; export the statement again")
  }

  @Test func aMissingCreditDebitIndicator() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(indicator: ""))))
    #expect(issue.kind == .missingRequiredColumn)
    #expect(issue.line == 6)
    #expect(issue.columnName == "Ntry/CdtDbtInd")
    #expect(issue.message == "the entry does not say whether it is a credit or a debit")
  }

  @Test func anUnknownCreditDebitIndicator() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(indicator: "<CdtDbtInd>DEBIT</CdtDbtInd>"))))
    #expect(issue.kind == .badAmount)
    #expect(issue.line == 8)
    #expect(issue.columnName == "Ntry/CdtDbtInd")
    #expect(issue.rawValue == "DEBIT")
    #expect(issue.message == "CdtDbtInd is neither CRDT nor DBIT")
  }

  @Test func aMissingDate() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(date: ""))))
    #expect(issue.kind == .missingRequiredColumn)
    #expect(issue.line == 6)
    #expect(issue.columnName == "Ntry/BookgDt")
    #expect(issue.message == "the entry has neither a booking date nor a value date")
  }

  @Test func anInvalidDate() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(date: "<BookgDt><Dt>2026-02-30</Dt></BookgDt>"))))
    #expect(issue.kind == .badDate)
    #expect(issue.line == 10)
    #expect(issue.columnName == "Ntry/BookgDt/Dt")
    #expect(issue.rawValue == "2026-02-30")
    #expect(issue.message == "not a date (expected YYYY-MM-DD)")
    #expect(issue.hint == "the file is damaged or edited; export the statement again")
  }

  @Test func aDateOutsideTheSupportedRange() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(date: "<ValDt><Dt>1899-12-31</Dt></ValDt>"))))
    #expect(issue.kind == .badDate)
    #expect(issue.columnName == "Ntry/ValDt/Dt")
    #expect(issue.message == "the date is outside 1900-01-01 to 2999-12-31")
  }

  @Test func anUnknownCurrency() throws {
    let issue = try #require(Self.issue(Self.document(Self.entry(amount: "<Amt Ccy=\"EUX\">1.00</Amt>"))))
    #expect(issue.kind == .unknownCurrency)
    #expect(issue.line == 7)
    #expect(issue.columnName == "Ntry/Amt@Ccy")
    #expect(issue.rawValue == "EUX")
    #expect(issue.message == "not an ISO 4217 currency code")
  }

  @Test func batchDetailsThatDoNotAddUp() throws {
    let details = """
      <NtryDtls>
      <TxDtls><Amt Ccy="EUR">4.00</Amt><RltdPties><Cdtr><Nm>A</Nm></Cdtr></RltdPties></TxDtls>
      <TxDtls><Amt Ccy="EUR">5.00</Amt><RltdPties><Cdtr><Nm>B</Nm></Cdtr></RltdPties></TxDtls>
      </NtryDtls>
      """
    let issue = try #require(Self.issue(Self.document(Self.entry(extra: details), version: "08")))
    #expect(issue.kind == .badAmount)
    #expect(issue.line == 6)
    #expect(issue.columnName == "Ntry/NtryDtls/TxDtls/Amt")
    #expect(issue.rawValue == "10.00")
    #expect(issue.message == "the batch details add up to -9.00 EUR but the entry's amount is -10.00 EUR")
    #expect(issue.hint == "the file may be damaged or edited; export the statement again from the bank")
  }

  @Test func batchDetailsWithTheirOwnSigns() throws {
    let details = """
      <NtryDtls>
      <TxDtls><Amt Ccy="EUR">12.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><RltdPties><Cdtr><Nm>Shop</Nm></Cdtr></RltdPties></TxDtls>
      <TxDtls><Amt Ccy="EUR">2.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RltdPties><Dbtr><Nm>Refund</Nm></Dbtr></RltdPties></TxDtls>
      </NtryDtls>
      """
    let run = try StatementRun.read(CAMT053Reader.self, Self.document(Self.entry(extra: details), version: "08"))
    #expect(run.entries.map(\.amount) == [eur(-1200), eur(200)])
    #expect(run.entries.map(\.description) == ["Shop", "Refund"])
    #expect(run.entries.map(\.line) == [12, 13])
    #expect(run.entries.map(\.transactionID) == [nil, nil])
  }

  @Test func aValueTooLong() throws {
    let long = String(repeating: "x", count: ImportLimits.maxFieldBytes + 1)
    let issue = try #require(Self.issue(Self.document(Self.entry(extra: "<AddtlNtryInf>\(long)</AddtlNtryInf>"))))
    #expect(issue.kind == .fieldTooLong)
    #expect(issue.line == 11)
    #expect(issue.columnName == "Ntry/AddtlNtryInf")
  }

  @Test func aTruncatedFile() {
    let bytes = Array(Self.document(Self.entry()).prefix(300))
    guard
      case .undetectable(let file, let message, let hint) = StatementRun.error(
        CAMT053Reader.self, bytes, file: "cut.xml")
    else {
      Issue.record("not refused")
      return
    }
    #expect(file == "cut.xml")
    #expect(message.hasPrefix("the XML is not well formed at line "))
    #expect(hint == "the file is damaged or cut short; export the statement again from the bank")
  }

  @Test func mismatchedTags() {
    let text = String(decoding: Self.document(Self.entry()), as: UTF8.self)
      .replacingOccurrences(of: "</CdtDbtInd>", with: "</CdtDbtIndx>")
    #expect(
      StatementRun.error(CAMT053Reader.self, Array(text.utf8), file: "bad.xml")
        == .undetectable(
          file: "bad.xml", message: "the XML is not well formed at line 8: an end tag does not match its start tag",
          hint: "the file is damaged or cut short; export the statement again from the bank"))
  }

  @Test func anotherCAMTMessageIsNotAStatement() {
    let text = """
      <?xml version="1.0"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"><BkToCstmrDbtCdtNtfctn/></Document>
      """
    #expect(
      StatementRun.error(CAMT053Reader.self, Array(text.utf8), file: "n.xml")
        == .undetectable(
          file: "n.xml",
          message:
            "no bank-to-customer statement (BkToCstmrStmt) or account report (BkToCstmrAcctRpt) in this XML file",
          hint:
            "export the account statement as CAMT.053 or the account report as CAMT.052; CAMT.054 is another message"
        ))
  }

  @Test func anErrorFromTheCallerStopsTheReading() throws {
    struct Stop: Error {}
    var reader = CAMT053Reader(file: "t", options: ImportOptions(), defaultCurrency: .usd)
    var calls = 0
    #expect(throws: Stop.self) {
      try reader.read(MemorySource(Self.document(Self.entry() + Self.entry()))) { _ in
        calls += 1
        throw Stop()
      }
    }
    #expect(calls == 1)
  }
}

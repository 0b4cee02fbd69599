import ExpenseCore
import Testing

@testable import ExpenseImport

/// The format of a file is told by its content, never by its name.
@Suite struct StatementFormatTests {
  func sniff(_ text: String) -> StatementFormat { StatementFormat.sniff(Array(text.utf8)) }

  @Test func eachFormatIsRecognisedByItsFirstBytes() {
    #expect(sniff("OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\n\r\n<OFX>\r\n") == .ofx)
    #expect(sniff("<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n<OFX>") == .ofx)
    #expect(sniff("\n\n<OFX><SIGNONMSGSRSV1>") == .ofx)
    #expect(sniff("\u{FEFF}ofxheader:100\n") == .ofx)
    #expect(
      sniff(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>"
      ) == .camt053)
    #expect(sniff("!Type:Bank\nD1/2'26\nT-5.00\n^\n") == .qif)
    #expect(sniff("!Account\nNChecking\n^\n!Type:Bank\n") == .qif)
    #expect(sniff("!type:ccard\n") == .qif)
    #expect(sniff(":20:STARTUMS\n:25:12345678/0001234567\n:28C:1/1\n:60F:C261001EUR100,00\n") == .mt940)
    #expect(
      sniff("{1:F01BANKDEFFXXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n:20:REF\n:25:ACC\n:60F:C261001EUR1,00\n") == .mt940)
  }

  @Test func anythingElseIsCSV() {
    #expect(sniff("Date,Description,Amount\n2026-10-01,Coffee,-3.50\n") == .csv)
    #expect(sniff("") == .csv)
    #expect(sniff("<html><body>not a statement</body></html>") == .csv)
    // A CSV whose description mentions a tag is still a CSV.
    #expect(sniff("Date,Description,Amount\n2026-10-01,\"<OFX> book\",-3.50\n") == .csv)
    #expect(sniff("Date;Text\n:20: looks like a tag\n") == .csv)
  }

  @Test func utf16FilesAreSniffedToo() {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in "!Type:Bank\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect(StatementFormat.sniff(bytes) == .qif)
  }
}

/// Entries become rows the way CSV rows do: cleaned, categorized, fingerprinted.
@Suite struct EntryMapperTests {
  let day = CivilDate(year: 2026, month: 10, day: 3)!

  func entry(_ description: String, id: String? = nil, account: String? = "ACC-1", minor: Int64 = -1250)
    -> StatementEntry
  {
    StatementEntry(
      line: 7, date: day, amount: Money(minor: minor, currency: .usd), description: description, account: account,
      transactionID: id)
  }

  @Test func theBanksIdIsTheIdentity() {
    var mapper = EntryMapper()
    let a = mapper.row(entry("Coffee", id: "FIT1"))
    let b = mapper.row(entry("Coffee", id: "FIT2"))
    var later = EntryMapper()
    let again = later.row(entry("Coffee shop, renamed", id: "FIT1", minor: -1300))
    #expect(a.fingerprintHash != b.fingerprintHash)  // two identical purchases, both kept
    #expect(a.fingerprintHash == again.fingerprintHash)  // the same transaction in a later file
    var other = EntryMapper()
    let otherAccount = other.row(entry("Coffee", id: "FIT1", account: "ACC-2"))
    #expect(a.fingerprintHash != otherAccount.fingerprintHash)  // a bank reusing ids across accounts
  }

  @Test func withoutAnIdIdenticalRowsAreNumberedLikeCSV() {
    var mapper = EntryMapper()
    let first = mapper.row(entry("Coffee"))
    let second = mapper.row(entry("Coffee"))
    #expect(first.fingerprintHash != second.fingerprintHash)
    #expect(
      first.fingerprintHash
        == Fingerprint.hash(
          account: "ACC-1", date: day, currency: .usd, amountMinor: -1250, description: "Coffee", occurrence: 1))
    #expect(
      second.fingerprintHash
        == Fingerprint.hash(
          account: "ACC-1", date: day, currency: .usd, amountMinor: -1250, description: "Coffee", occurrence: 2))
  }

  @Test func descriptionsAreCleanedAndTransfersGetTheirCategory() {
    var mapper = EntryMapper()
    let row = mapper.row(entry("  ACME\u{1B}[31m  Corp\r\n\tpayment \u{2028} "))
    #expect(row.description == "ACME [31m Corp payment")
    var transfer = entry("To savings")
    transfer.isTransfer = true
    transfer.category = "Savings"
    let stored = mapper.row(transfer)
    #expect(stored.category == "Transfer: Savings")
    #expect(mapper.transfers == ["Transfer: Savings"])
    #expect(stored.line == 7 && stored.account == "ACC-1" && stored.amount.minor == -1250)
  }

  /// The check that lets most descriptions through untouched agrees with the cleaning itself.
  @Test func aCleanDescriptionIsKeptAsItIs() {
    var state: UInt64 = 0xC1EA
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let alphabet = [
      "a", "é", " ", "  ", "\t", "\n", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{2027}", "€",
    ]
    for _ in 0..<3000 {
      let text = (0..<next(8)).map { _ in alphabet[next(alphabet.count)] }.joined()
      #expect(EntryMapper.isClean(text) == (EntryMapper.collapse(text) == text), "\(Array(text.unicodeScalars))")
      #expect(EntryMapper.clean(text) == EntryMapper.collapse(text))
    }
  }

  @Test func categoriesGoThroughTheStoredSpellingOnce() {
    var calls = 0
    var mapper = EntryMapper(categoryName: { name in
      calls += 1
      return name.lowercased() == "food" ? "Food" : name
    })
    var e = entry("Lunch")
    e.category = "FOOD"
    #expect(mapper.row(e).category == "Food")
    #expect(mapper.row(e).category == "Food")
    #expect(calls == 1)
  }
}

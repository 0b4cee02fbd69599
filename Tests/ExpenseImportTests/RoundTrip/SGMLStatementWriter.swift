import ExpenseCore
import Foundation
import TestSupport

@testable import ExpenseImport

/// Writes random OFX 1.x (SGML) statements, with what the OFX reader must read back from them.
///
/// Awkward but legal: an SGML header of any 1.x version, line ends LF, CRLF, CR or none at all
/// (then blanks separate the header's pairs), leaves closed or left open, blanks around values,
/// tags in any case, bank and card statements (several in one file), dates with and without a time
/// and zone, amounts with `+`, a leading `.`, trailing zeros or a decimal comma (OFX has no
/// grouping), `&amp;`, `&lt;`, `&gt;` and character references in names, long and non-ASCII names
/// and memos, a PAYEE aggregate instead of NAME, a memo equal to the name (read once), transactions
/// in a pending list (not entries).
struct SGMLStatementWriter {
  var random: SeededRandom
  var lines: [String] = []
  var expected: [StatementEntry] = []
  let newline: String
  let commaMark: Bool

  init(seed: UInt64) {
    random = SeededRandom(state: seed)
    newline = ["\n", "\r\n", "\r", ""][random.int(0...3)]
    commaMark = random.int(0...3) == 0
  }

  /// The file and the entries it holds, in order.
  static func make(seed: UInt64) -> (text: String, entries: [StatementEntry]) {
    var writer = SGMLStatementWriter(seed: seed)
    writer.file()
    let separator = writer.newline.isEmpty ? " " : writer.newline
    return (writer.lines.joined(separator: separator) + separator, writer.expected)
  }

  mutating func chance(_ inN: Int) -> Bool { random.int(1...inN) == 1 }
  mutating func pick<T>(_ values: [T]) -> T { values[random.int(0...(values.count - 1))] }

  /// The line the next tag goes on (all on line 1 in a file without line ends).
  var nextLine: Int { newline.isEmpty ? 1 : lines.count + 1 }

  mutating func file() {
    lines += [
      "OFXHEADER:100", "DATA:OFXSGML", "VERSION:\(pick(["102", "103", "151", "160"]))", "SECURITY:NONE",
      "ENCODING:UTF-8", "CHARSET:NONE", "COMPRESSION:NONE", "OLDFILEUID:NONE", "NEWFILEUID:NONE", "",
    ]
    if newline.isEmpty { lines.removeLast() }
    tag("OFX")
    tag("SIGNONMSGSRSV1")
    tag("SONRS")
    leaf("DTSERVER", "20261101120000")
    leaf("LANGUAGE", "ENG")
    tag("/SONRS")
    tag("/SIGNONMSGSRSV1")
    for _ in 0..<random.int(1...3) { statement(card: chance(3)) }
    tag("/OFX")
  }

  mutating func tag(_ name: String) {
    lines.append("<\(chance(6) ? name.lowercased() : name)>")
  }

  /// `<TAG>value`, closed or not; `escaped` when the value is markup already.
  mutating func leaf(_ tag: String, _ value: String, escaped: Bool = false) {
    let name = chance(6) ? tag.lowercased() : tag
    let text = escaped ? value : SGMLStatementWriter.escape(value)
    // Blanks around a value are not part of it.
    let pad = chance(5) ? " \t" : ""
    lines.append("<\(name)>\(pad)\(text)\(pad)" + (chance(2) ? "</\(name)>" : ""))
  }

  static func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  /// Some characters of `s` as character references (decimal or hexadecimal), the rest escaped.
  mutating func referenced(_ s: String) -> String {
    var out = ""
    for scalar in s.unicodeScalars {
      if scalar.value > 0x20 && chance(4) {
        out += chance(2) ? "&#\(scalar.value);" : "&#x\(String(scalar.value, radix: 16));"
      } else {
        out += SGMLStatementWriter.escape(String(scalar))
      }
    }
    return out
  }

  mutating func statement(card: Bool) {
    let currency = pick([Currency.usd, .eur, .jpy, Currency(code: "BHD") ?? .usd, Currency(code: "CHF") ?? .usd])
    let account = String(random.int(1...99_999_999_999))
    tag(card ? "CREDITCARDMSGSRSV1" : "BANKMSGSRSV1")
    tag(card ? "CCSTMTTRNRS" : "STMTTRNRS")
    leaf("TRNUID", "1")
    tag(card ? "CCSTMTRS" : "STMTRS")
    leaf("CURDEF", currency.code)
    tag(card ? "CCACCTFROM" : "BANKACCTFROM")
    if !card { leaf("BANKID", "121099999") }
    leaf("ACCTID", account)
    if !card { leaf("ACCTTYPE", "CHECKING") }
    tag(card ? "/CCACCTFROM" : "/BANKACCTFROM")
    tag("BANKTRANLIST")
    leaf("DTSTART", "20260101")
    leaf("DTEND", "20261231")
    for index in 0..<random.int(0...10) { transaction(index, currency: currency, account: account, booked: true) }
    tag("/BANKTRANLIST")
    if chance(4) {
      tag("PENDINGTRNLIST")
      transaction(99, currency: currency, account: account, booked: false)
      tag("/PENDINGTRNLIST")
    }
    tag("LEDGERBAL")
    leaf("BALAMT", "0.00")
    leaf("DTASOF", "20261231")
    tag("/LEDGERBAL")
    tag(card ? "/CCSTMTRS" : "/STMTRS")
    tag(card ? "/CCSTMTTRNRS" : "/STMTTRNRS")
    tag(card ? "/CREDITCARDMSGSRSV1" : "/BANKMSGSRSV1")
  }

  mutating func transaction(_ index: Int, currency: Currency, account: String, booked: Bool) {
    let line = nextLine
    tag("STMTTRN")
    let date = CivilDate(daysSinceEpoch: random.int(-25_567...376_000))
    let magnitude = Int64(random.int(0...(chance(3) ? 2_000_000_000 : 99_999)))
    let minor = chance(2) ? -magnitude : magnitude
    leaf("TRNTYPE", minor < 0 ? "DEBIT" : "CREDIT")
    leaf("DTPOSTED", dateText(date))
    leaf("TRNAMT", amountText(minor, currency))
    let fitID = "\(pick(["", "T", "2026:"]))\(index)-\(random.int(0...999_999))"
    leaf("FITID", fitID)
    let name = AwkwardText.payee(&random)
    let inPayee = chance(5)
    if inPayee {
      tag("PAYEE")
      leaf("NAME", name)
      leaf("CITY", "Springfield")
      tag("/PAYEE")
    } else {
      leaf("NAME", chance(3) ? referenced(name) : SGMLStatementWriter.escape(name), escaped: true)
    }
    var memo = ""
    if chance(2) {
      memo = chance(6) ? name : AwkwardText.payee(&random)
      leaf("MEMO", memo)
    }
    tag("/STMTTRN")
    guard booked else { return }
    let description = memo.isEmpty || memo == name ? name : name + " / " + memo
    expected.append(
      StatementEntry(
        line: line, date: date, amount: Money(minor: minor, currency: currency), description: description,
        account: account, transactionID: fitID))
  }

  /// `YYYYMMDD`, alone or with a time, milliseconds and a zone.
  mutating func dateText(_ date: CivilDate) -> String {
    let day = String(format: "%04d%02d%02d", date.year, date.month, date.day)
    return day + pick(["", "120000", "235959.999", "000000[0:GMT]", "120000.000[-5:EST]", "093000[+5.30:IST]"])
  }

  /// An OFX amount: `-12.50`, `+12.5`, `.50`, `12.5000`, `12,50`.
  mutating func amountText(_ minor: Int64, _ currency: Currency) -> String {
    var text = Money(minor: minor, currency: currency).decimalString
    if minor > 0 && chance(4) { text = "+" + text }
    if text.contains(".") {
      if chance(4) { text += "000" }
      if chance(4) { while text.hasSuffix("0") { text.removeLast() } }
      if text.hasSuffix(".") && chance(2) { text.removeLast() }
      // `.5` for `0.5`, only where a digit follows the mark.
      if chance(3), let mark = text.firstIndex(of: "."), text.index(after: mark) < text.endIndex {
        text = text.replacingOccurrences(of: "-0.", with: "-.").replacingOccurrences(of: "+0.", with: "+.")
        if text.hasPrefix("0.") { text.removeFirst() }
      }
    }
    return commaMark ? text.replacingOccurrences(of: ".", with: ",") : text
  }
}

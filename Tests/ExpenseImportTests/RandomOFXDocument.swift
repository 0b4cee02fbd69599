import ExpenseCore
import Foundation
import TestSupport

/// A random OFX 2.x (XML) file, as awkward as XML lets a bank be: several statements (bank and
/// card), dates with and without a time and zone, amounts with a `+`, a leading `.`, a comma,
/// trailing zeros, names and memos with references, CDATA sections, comments, non-ASCII and
/// long text, leaves in any order, elements the reader does not know, attributes, empty and
/// self-closing elements, comments and processing instructions between elements, any line ends.
/// What each entry holds is not recorded here: the expat oracle reads it back from the bytes.
struct RandomOFXDocument {
  static let currencies = ["USD", "EUR", "JPY", "BHD", "GBP", "CHF"]
  static let words = [
    "Café", "Grünkram", "ŁÓDŹ", "東京", "Ἀθῆναι", "straße", "🍕", "CORNER", "GROCERY", "#112", "A/B", "x-y",
    "100%", "Zoë's", "\"quoted\"", "R&D", "1<2", "3>2", "naïve", "Δ", "ü",
  ]

  var random: SeededRandom
  var out = ""
  /// What goes between elements: nothing, line ends, indents.
  let gap: String

  init(seed: UInt64) {
    random = SeededRandom(state: seed)
    gap = ["", "\n", "\r\n", "\n  ", "\t", " "][random.int(0...5)]
  }

  mutating func pick<T>(_ values: [T]) -> T { values[random.int(0...(values.count - 1))] }
  mutating func chance(_ inN: Int) -> Bool { random.int(1...inN) == 1 }

  /// The whole file.
  static func make(seed: UInt64) -> [UInt8] {
    var document = RandomOFXDocument(seed: seed)
    document.file()
    return Array(document.out.utf8)
  }

  mutating func file() {
    if chance(8) { out += "\u{FEFF}" }
    if !chance(6) {
      out += pick([
        "<?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>",
        "<?xml version='1.0' encoding='utf-8'?>",
      ])
      out += "\n"
    }
    out += "<?OFX OFXHEADER=\"200\" VERSION=\"\(pick(["200", "211", "220"]))\" SECURITY=\"NONE\""
    out += " OLDFILEUID=\"NONE\" NEWFILEUID=\"NONE\"?>\n"
    if chance(4) { out += "<!-- exported \(random.int(1...99)) -->\n" }
    open("OFX")
    aggregate("SIGNONMSGSRSV1") {
      $0.aggregate("SONRS") {
        $0.aggregate("STATUS") {
          $0.leaf("CODE", "0")
          $0.leaf("SEVERITY", "INFO")
        }
        $0.leaf("DTSERVER", "20261101120000.000[-5:EST]")
        $0.leaf("LANGUAGE", "ENG")
      }
    }
    let statements = random.int(1...3)
    for _ in 0..<statements {
      let card = chance(3)
      aggregate(card ? "CREDITCARDMSGSRSV1" : "BANKMSGSRSV1") {
        $0.aggregate(card ? "CCSTMTTRNRS" : "STMTTRNRS") {
          $0.leaf("TRNUID", String($0.random.int(0...99_999)))
          $0.statement(card: card)
        }
      }
    }
    close("OFX")
    out += pick(["", "\n", "\r\n", "\n<!-- end -->\n"])
  }

  mutating func statement(card: Bool) {
    let currency = pick(RandomOFXDocument.currencies)
    aggregate(card ? "CCSTMTRS" : "STMTRS") {
      $0.leaf("CURDEF", currency)
      $0.aggregate(card ? "CCACCTFROM" : "BANKACCTFROM") {
        if !card { $0.leaf("BANKID", "121099999") }
        $0.leaf("ACCTID", String($0.random.int(1...999_999_999)))
        if !card { $0.leaf("ACCTTYPE", $0.pick(["CHECKING", "SAVINGS", "MONEYMRKT"])) }
      }
      $0.aggregate("BANKTRANLIST") {
        $0.leaf("DTSTART", "20260101")
        $0.leaf("DTEND", "20261231")
        for index in 0..<$0.random.int(0...8) { $0.transaction(index, currency: currency) }
      }
      if $0.chance(5) {
        // A pending list holds no entry, whatever it holds.
        $0.aggregate("PENDINGTRNLIST") { $0.transaction(99, currency: currency) }
      }
      $0.aggregate("LEDGERBAL") {
        $0.leaf("BALAMT", "100.00")
        $0.leaf("DTASOF", "20261031")
      }
    }
  }

  /// A transaction of a statement in `statementCurrency` (or, one in six, in its own).
  mutating func transaction(_ index: Int, currency statementCurrency: String) {
    let name = "STMTTRN"
    open(name, attributes: chance(10) ? " id=\"t\(index)\" note='a/b>c'" : "")
    let own = chance(6) ? pick(RandomOFXDocument.currencies) : nil
    let decimals = Currency(code: own ?? statementCurrency)?.minorUnits ?? 2
    var leaves: [(String, String)] = [
      ("TRNTYPE", pick(["DEBIT", "CREDIT", "POS", "FEE"])), ("DTPOSTED", date()), ("TRNAMT", amount(decimals)),
      ("FITID", fitID(index)),
    ]
    if chance(3) { leaves.append(("DTUSER", date())) }
    if chance(4) { leaves.append(("CHECKNUM", String(random.int(100...9999)))) }
    if chance(5) { leaves.append(("SIC", "5411")) }
    if chance(5) { leaves.append(("INTU.XID", "x\(random.int(0...999))")) }
    if !chance(5) { leaves.append(("NAME", text())) }
    if chance(3) { leaves.append(("MEMO", text())) }
    if chance(3) { leaves = shuffled(leaves) }
    for (tag, value) in leaves { leaf(tag, value, raw: true) }
    if chance(5) { aggregate("PAYEE") { $0.leaf("NAME", $0.text(), raw: true) } }
    if let own {
      aggregate("CURRENCY") {
        $0.leaf("CURRATE", "1.0")
        $0.leaf("CURSYM", own)
      }
    }
    if chance(8) { aggregate("X.BANKINFO") { $0.leaf("NAME", "not the payee") } }
    if chance(8) { out += "<MEMO/>" + gap }
    close(name)
  }

  mutating func shuffled(_ values: [(String, String)]) -> [(String, String)] {
    var values = values
    for i in stride(from: values.count - 1, to: 0, by: -1) { values.swapAt(i, random.int(0...i)) }
    return values
  }

  /// `YYYYMMDD`, with a time and a zone or not; years 1900–2999 but for one in 200.
  mutating func date() -> String {
    let year = chance(200) ? pick([1899, 3000, 1066]) : random.int(1900...2999)
    let month = random.int(1...12)
    let day = random.int(1...CivilDate.daysIn(year: year, month: month))
    var text = String(format: "%04d%02d%02d", year, month, day)
    switch random.int(0...4) {
    case 0: text += String(format: "%02d%02d%02d", random.int(0...23), random.int(0...59), random.int(0...59))
    case 1: text += "120000.000[-5:EST]"
    case 2: text += "000000[0:GMT]"
    case 3: text += "093000.250[+5.30:IST]"
    default: break
    }
    return text
  }

  /// A decimal as banks write it: `-12.50`, `+3`, `.5`, `1234,56`, `7.5000`, `0012.30`, with
  /// at most `decimals` decimals but for one in 100 (trailing zeros aside).
  mutating func amount(_ decimals: Int) -> String {
    let whole = chance(4) ? 0 : random.int(0...(chance(3) ? 99_999_999 : 999))
    let decimals = random.int(0...decimals) + (chance(100) ? 1 : 0)
    var fraction = ""
    for _ in 0..<decimals { fraction += String(random.int(0...9)) }
    let sign = pick(["", "-", "-", "+"])
    let mark = chance(5) ? "," : "."
    var text = sign
    if whole == 0 && !fraction.isEmpty && chance(2) {
      text += mark + fraction
    } else {
      text += (chance(10) ? "00" : "") + String(whole) + (fraction.isEmpty ? "" : mark + fraction)
    }
    if chance(6) { text += (text.contains(mark) ? "" : ".") + "000" }
    return text
  }

  mutating func fitID(_ index: Int) -> String {
    pick(["", "F", "2026-10-", "ab:cd/"]) + String(index) + "-" + String(random.int(0...999_999))
  }

  /// A name or memo: words (some non-ASCII, some with markup characters escaped, as character
  /// references, or in a CDATA section), doubled inner spaces, blanks at the ends, sometimes long.
  mutating func text() -> String {
    var parts: [String] = []
    let count = chance(10) ? random.int(20...60) : random.int(1...5)
    for _ in 0..<count {
      let word = pick(RandomOFXDocument.words)
      switch random.int(0...9) {
      case 0: parts.append("<![CDATA[" + word + "]]>")
      case 1: parts.append(word.unicodeScalars.map { "&#\($0.value);" }.joined())
      case 2:
        parts.append(
          word.unicodeScalars.map { "&#x" + String($0.value, radix: 16, uppercase: chance(2)) + ";" }.joined())
      default: parts.append(RandomOFXDocument.escaped(word))
      }
    }
    let inner = chance(4) ? "  " : " "
    return pick(["", " ", "\n  "]) + parts.joined(separator: inner) + pick(["", " ", "\n"])
  }

  static func escaped(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "'", with: "&apos;")
  }

  // MARK: Markup

  mutating func open(_ name: String, attributes: String = "") {
    out += "<\(name)\(attributes)\(chance(15) ? " " : "")>" + gap
    if chance(20) { out += pick(["<!-- c -->", "<?app note?>"]) + gap }
  }

  mutating func close(_ name: String) {
    out += "</\(name)\(chance(15) ? "\n" : "")>" + gap
  }

  mutating func aggregate(_ name: String, _ body: (inout RandomOFXDocument) -> Void) {
    open(name)
    body(&self)
    close(name)
  }

  /// `<TAG>value</TAG>`; `raw` when `value` is markup already (references, CDATA), else it is
  /// escaped. An empty value is sometimes written `<TAG/>`.
  mutating func leaf(_ tag: String, _ value: String, raw: Bool = false) {
    let text = raw ? value : RandomOFXDocument.escaped(value)
    if text.isEmpty && chance(2) {
      out += "<\(tag)/>" + gap
      return
    }
    out += "<\(tag)>\(text)</\(tag)>" + gap
  }
}

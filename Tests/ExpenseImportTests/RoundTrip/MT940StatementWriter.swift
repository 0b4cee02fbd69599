import ExpenseCore
import Foundation
import TestSupport

@testable import ExpenseImport

/// Writes random MT940 files, with what the MT940 reader must read back from them.
///
/// Awkward but legal: the SWIFT envelope or none, several statements, a statement over two messages
/// (`:62M:` then `:60M:`), `:28C:` and `:64:` lines, entry dates (`MMDD`) beside the value date,
/// also across New Year, D, C, RD and RC marks with and without a funds code, amounts with and
/// without decimals (`12,`, `12,5`, `1234,56`; MT940 has no grouping), customer and bank
/// references, supplementary details on the `:61:`'s second line, an `:86:` of free text over
/// several lines (joined with spaces), in the structured `?NN` form with the purpose (`SVWZ+`) and
/// name cut into subfields and the field cut into 65-character lines anywhere (joined as they
/// were), or no `:86:` at all.
struct MT940StatementWriter {
  var random: SeededRandom
  var lines: [String] = []
  var expected: [StatementEntry] = []

  /// What an `:86:` may not hold: a `?` (the structured form's separator), a `:` (a line
  /// starting `:NN:` is a field), `{` and `-` lines (the envelope), `/` at its start (the
  /// keyword form), `+` (`SVWZ+` and its kin).
  static let forbidden: Set<Character> = ["?", ":", "{", "}", "/", "+", "-", "\""]

  init(seed: UInt64) { random = SeededRandom(state: seed) }

  /// The file and the entries it holds.
  static func make(seed: UInt64) -> (text: String, entries: [StatementEntry]) {
    var writer = MT940StatementWriter(seed: seed)
    writer.file()
    let newline = writer.random.int(0...1) == 0 ? "\n" : "\r\n"
    return (writer.lines.joined(separator: newline) + newline, writer.expected)
  }

  mutating func chance(_ inN: Int) -> Bool { random.int(1...inN) == 1 }
  mutating func pick<T>(_ values: [T]) -> T { values[random.int(0...(values.count - 1))] }

  mutating func file() {
    for number in 1...random.int(1...3) {
      let envelope = chance(3)
      if envelope {
        lines.append("{1:F01BANKDEFFXXXX0000000000}{2:O9401200261101BANKDEFFXXXX00000000002611011200N}{4:")
      }
      statement(number)
      if envelope { lines.append("-}") } else if chance(3) { lines.append("-") }
    }
  }

  static func yymmdd(_ date: CivilDate) -> String {
    String(format: "%02d%02d%02d", date.year % 100, date.month, date.day)
  }

  /// `1234,56`, `12,`, `12,5`, `12`: the magnitude with a decimal comma.
  mutating func amountText(_ magnitude: Int64, _ currency: Currency) -> String {
    var text = Money(minor: magnitude, currency: currency).decimalString.replacingOccurrences(of: ".", with: ",")
    if !text.contains(",") { return chance(2) ? text + "," : text }
    if chance(3) { while text.hasSuffix("0") { text.removeLast() } }
    return text
  }

  /// One account's statement, in one message or over several (pages): a page that goes on
  /// closes with an intermediate balance (`:62M:`), the next opens with it (`:60M:`).
  mutating func statement(_ number: Int) {
    let currency = pick([Currency.eur, Currency(code: "CHF") ?? .eur, .jpy, Currency(code: "BHD") ?? .eur])
    let account = pick(["DE89370400440532013000", "37040044/0532013000", "NL91ABNA0417164300"]) + String(number)
    var balance = Int64(random.int(-9_999_999...9_999_999))
    var day = CivilDate(daysSinceEpoch: random.int(10_958...47_400))  // 2000 … 2099
    let pages = chance(3) ? 2 : 1
    for page in 1...pages {
      lines += [":20:STARTUMS\(number)", ":25:" + account, ":28C:\(number)/\(page)"]
      lines.append(":\(page == 1 ? "60F" : "60M"):" + balanceText(balance, day, currency))
      for index in 0..<random.int(0...10) {
        let next = day.adding(days: random.int(0...20))
        guard next.year <= 2099 else { break }
        day = next
        balance += entry(index, valueDate: day, currency: currency, account: account)
      }
      let closing = balanceText(balance, day, currency)
      lines.append(":\(page == pages ? "62F" : "62M"):" + closing)
      if chance(2) { lines.append(":64:" + closing) }
      if page < pages { lines.append("-") }
    }
  }

  /// `C261001EUR1234,56`: a balance on `day`.
  mutating func balanceText(_ balance: Int64, _ day: CivilDate, _ currency: Currency) -> String {
    "\(balance < 0 ? "D" : "C")\(Self.yymmdd(day))\(currency.code)\(amountText(Int64(balance.magnitude), currency))"
  }

  /// Writes one `:61:` (and its `:86:`); returns its signed amount.
  mutating func entry(_ index: Int, valueDate: CivilDate, currency: Currency, account: String) -> Int64 {
    let magnitude = Int64(random.int(0...(chance(3) ? 2_000_000_000 : 99_999)))
    let mark = pick(["D", "C", "D", "C", "RD", "RC"])
    let signed = mark == "C" || mark == "RD" ? magnitude : -magnitude
    // The entry date: the value date or a few days later, across New Year too.
    var booked = valueDate.adding(days: chance(2) ? 0 : random.int(1...5))
    if booked.year > 2099 { booked = valueDate }
    let mmdd = booked != valueDate || chance(2) ? String(format: "%02d%02d", booked.month, booked.day) : ""
    let date = mmdd.isEmpty ? valueDate : booked
    let funds = chance(4) ? "R" : ""
    let customer = chance(2) ? "NONREF" : "KREF\(index)"
    let bank = chance(2) ? "//B\(random.int(0...999_999))" : ""
    let line = lines.count + 1
    lines.append(
      ":61:\(Self.yymmdd(valueDate))\(mmdd)\(mark)\(funds)\(amountText(magnitude, currency))NTRF\(customer)\(bank)")
    let supplementary = chance(3) ? AwkwardText.make(&random, words: random.int(1...3), forbidden: Self.forbidden) : ""
    if !supplementary.isEmpty { lines.append(supplementary) }
    var description: String
    switch random.int(0...5) {
    case 0:
      description = supplementary.isEmpty ? (customer == "NONREF" ? "" : customer) : supplementary
    case 1, 2:
      description = structured(index)
    default:
      description = freeText()
    }
    expected.append(
      StatementEntry(
        line: line, date: date, amount: Money(minor: signed, currency: currency), description: description,
        account: account, transactionID: bank.isEmpty ? nil : String(bank.dropFirst(2))))
    return signed
  }

  /// A free `:86:`: words over lines of at most 65 characters, cut between words.
  mutating func freeText() -> String {
    let text = AwkwardText.payee(&random, forbidden: Self.forbidden)
    var out: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty && current.count + 1 + word.count > 65 {
        out.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : " ") + word
    }
    out.append(current)
    // Blanks at a line's end are not text: the lines are trimmed before they are joined.
    lines += out.enumerated().map { ($0.offset == 0 ? ":86:" : "") + $0.element + (chance(4) ? "  " : "") }
    return text
  }

  /// A structured `:86:` (`166?00GUTSCHRIFT?20SVWZ+…?32name`): the purpose and the name cut into
  /// 27-character subfields, the whole cut into 65-character lines at any place.
  mutating func structured(_ index: Int) -> String {
    let purpose = AwkwardText.payee(&random, forbidden: Self.forbidden)
    let name = AwkwardText.make(&random, words: random.int(1...4), forbidden: Self.forbidden)
    var text = "\(pick(["166", "177", "805"]))?00\(pick(["GUTSCHRIFT", "ÜBERWEISUNG", "LASTSCHRIFT"]))?109310"
    let withSEPA = chance(2)
    let cut = Self.pieces((withSEPA ? "EREF+E\(index)SVWZ+" : "") + purpose, size: 27)
    for (offset, piece) in cut.prefix(10).enumerated() { text += "?\(20 + offset)" + piece }
    for (offset, piece) in cut.dropFirst(10).prefix(4).enumerated() { text += "?\(60 + offset)" + piece }
    text += "?3037040044?310532013000"
    let nameCut = Self.pieces(name, size: 27)
    text += "?32" + nameCut[0]
    if nameCut.count > 1 { text += "?33" + nameCut[1...].joined() }
    let written = Self.pieces(text, size: 65)
    lines.append(":86:" + written[0])
    lines += written.dropFirst()
    // Up to 14 subfields of purpose: a longer one is cut short, as a bank would cut it.
    let kept = cut.prefix(14).joined()
    let purposeText = withSEPA ? String(kept.dropFirst("EREF+E\(index)SVWZ+".count)) : kept
    let parts = [name.trimmingASCIIWhitespace(), purposeText.trimmingASCIIWhitespace()].filter { !$0.isEmpty }
    return parts.joined(separator: " / ")
  }

  /// `text` cut into pieces of `size` characters (the last shorter).
  static func pieces(_ text: String, size: Int) -> [String] {
    var out: [String] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      out.append(String(rest.prefix(size)))
      rest = rest.dropFirst(size)
    }
    return out.isEmpty ? [""] : out
  }
}

import ExpenseCore
import Foundation
import TestSupport

@testable import ExpenseImport

/// Writes random QIF files of cash-flow records, with the options an import would be given and
/// what the QIF reader must read back.
///
/// Awkward but legal: every date layout the reader claims (`10/03/2026`, `10/3'26` and
/// ` 1/ 2' 5` as Quicken writes them, `03.10.2026`, `3-10-2026`, two-digit years, `2026-10-03`),
/// day or month first, told by `--date-format` only when no date of the file shows it; amounts
/// with thousands separators and either decimal mark (given with `--decimal-mark` only when the
/// amounts cannot prove it), `U` beside `T`; split records (`S`, `E`, `$`) whose parts add up,
/// with transfers (`[Account]`) and classes (`/Class`); `!Account` blocks, `!Option` lines,
/// ignored codes (`N`, `C`, `A`), blank lines, blanks at line ends, a last record without `^`.
struct QIFStatementWriter {
  var random: SeededRandom
  var lines: [String] = []
  var expected: [StatementEntry] = []
  var options = ImportOptions()
  let currency: Currency
  let dayFirst: Bool
  let commaMark: Bool
  /// Whether a date written so far shows which comes first (a day above 12, not year first).
  var orderShown = false
  var group = 0

  static let categories: [(written: String, category: String?, transfer: Bool)] = [
    ("Groceries", "Groceries", false), ("Auto:Fuel", "Auto:Fuel", false),
    ("Food:Dining/Holiday 2026", "Food:Dining", false),
    ("[Savings]", "Savings", true), ("[Girokonto Ü]", "Girokonto Ü", true), ("", nil, false),
  ]

  init(seed: UInt64) {
    random = SeededRandom(state: seed)
    currency =
      [Currency.usd, .eur, .jpy, Currency(code: "BHD") ?? .usd, Currency(code: "GBP") ?? .usd][random.int(0...4)]
    dayFirst = random.int(0...1) == 0
    commaMark = random.int(0...2) == 0
  }

  /// The file, the options to read it with, and the entries it holds.
  static func make(seed: UInt64) -> (text: String, options: ImportOptions, entries: [StatementEntry]) {
    var writer = QIFStatementWriter(seed: seed)
    writer.file()
    let newline = writer.random.int(0...1) == 0 ? "\n" : "\r\n"
    return (writer.lines.joined(separator: newline) + newline, writer.options, writer.expected)
  }

  mutating func chance(_ inN: Int) -> Bool { random.int(1...inN) == 1 }
  mutating func pick<T>(_ values: [T]) -> T { values[random.int(0...(values.count - 1))] }

  mutating func file() {
    options.currency = currency.code
    if chance(3) { lines += ["!Option:AutoSwitch"] }
    var account: String?
    if chance(2) {
      let name = AwkwardText.make(&random, words: random.int(1...3))
      lines += ["!Account", "N" + name, "TBank", "^"]
      account = name
    }
    lines.append(pick(["!Type:Bank", "!Type:CCard", "!Type:Cash", "!type:bank", "!Type:Oth A"]))
    let count = random.int(1...12)
    for index in 0..<count { record(account: account, last: index == count - 1) }
    if !orderShown || chance(4) { options.dateFormat = dayFirst ? "DD/MM/YYYY" : "MM/DD/YYYY" }
    if (commaMark && currency.minorUnits != 2) || chance(4) { options.decimalMark = commaMark ? "," : "." }
  }

  mutating func record(account: String?, last: Bool) {
    if chance(5) { lines.append("") }
    let date = CivilDate(daysSinceEpoch: random.int(-25_567...376_000))
    let total = Int64(random.int(0...(chance(3) ? 2_000_000_000 : 99_999))) * (chance(3) ? 1 : -1)
    let payee = AwkwardText.payee(&random)
    let memo = chance(2) ? "" : (chance(5) ? payee : AwkwardText.payee(&random))
    let category = pick(QIFStatementWriter.categories)
    var fields = ["D" + dateText(date), "T" + amountText(total), "P" + payee]
    if !memo.isEmpty { fields.append("M" + memo) }
    if chance(3) { fields.append("U" + amountText(total)) }
    if chance(3) { fields.append("N" + String(random.int(100...9999))) }
    if chance(3) { fields.append("C" + pick(["*", "X", "c"])) }
    if chance(5) { fields.append("A" + AwkwardText.make(&random, words: 2)) }
    let split = chance(4)
    if !split && !category.written.isEmpty { fields.append("L" + category.written) }
    if chance(2) {
      // Any order: a record is its lines up to `^`.
      for i in stride(from: fields.count - 1, to: 0, by: -1) { fields.swapAt(i, random.int(0...i)) }
    }
    let first = lines.count + 1
    lines += fields.map { chance(6) ? $0 + pick([" ", "\t", "  "]) : $0 }
    let describe = { (memo: String) in memo.isEmpty || memo == payee ? payee : payee + " / " + memo }
    if split {
      group += 1
      let parts = random.int(1...4)
      var left = total
      for part in 0..<parts {
        let amount = part == parts - 1 ? left : Int64(random.int(-99_999...99_999))
        left -= amount
        let splitCategory = pick(QIFStatementWriter.categories)
        let splitMemo = chance(2) ? AwkwardText.payee(&random) : ""
        let line = lines.count + 1
        lines.append("S" + splitCategory.written)
        if !splitMemo.isEmpty { lines.append("E" + splitMemo) }
        lines.append("$" + amountText(amount))
        expected.append(
          StatementEntry(
            line: line, date: date, amount: Money(minor: amount, currency: currency),
            description: describe(splitMemo.isEmpty ? memo : splitMemo), category: splitCategory.category,
            account: account, isTransfer: splitCategory.transfer, splitGroup: group))
      }
    } else {
      expected.append(
        StatementEntry(
          line: first, date: date, amount: Money(minor: total, currency: currency), description: describe(memo),
          category: category.category, account: account, isTransfer: category.transfer))
    }
    // Quicken sometimes leaves out the last record's `^`.
    if !(last && chance(4)) { lines.append("^") }
  }

  /// The date in one of the layouts QIF programs write, day or month first as the file is.
  mutating func dateText(_ date: CivilDate) -> String {
    let (d, m, y) = (date.day, date.month, date.year)
    let (a, b) = dayFirst ? (d, m) : (m, d)
    var layouts = [0, 1, 2, 5]
    if (2000...2099).contains(y) { layouts += [3, 4] }
    if (1970...2069).contains(y) { layouts.append(6) }
    let layout = pick(layouts)
    if layout != 5 && d > 12 { orderShown = true }
    switch layout {
    case 0: return String(format: "%02d/%02d/%04d", a, b, y)
    case 1: return String(format: "%d.%d.%04d", a, b, y)
    case 2: return String(format: "%d-%02d-%04d", a, b, y)
    case 3: return "\(a)/\(b < 10 ? " " : "")\(b)'\(String(format: "%02d", y - 2000))"
    case 4: return String(format: "%2d/%2d'%2d", a, b, y - 2000)
    case 5: return String(format: "%04d-%02d-%02d", y, m, d)
    default: return String(format: "%d/%d/%02d", a, b, y % 100)
    }
  }

  /// `-1,234,567.89` (or `-1.234.567,89`): grouped or not, with the file's decimal mark.
  mutating func amountText(_ minor: Int64) -> String {
    let plain = Money(minor: minor, currency: currency).decimalString
    let negative = plain.hasPrefix("-")
    let body = negative ? String(plain.dropFirst()) : plain
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    let whole = Array(parts[0])
    let grouping = chance(2)
    var out = ""
    for (index, digit) in whole.enumerated() {
      if grouping && index > 0 && (whole.count - index) % 3 == 0 { out.append(commaMark ? "." : ",") }
      out.append(digit)
    }
    if parts.count > 1 { out += (commaMark ? "," : ".") + parts[1] }
    return (negative ? "-" : "") + out
  }
}

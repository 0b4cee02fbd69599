import ExpenseCore

/// Whether a file that names no currency looks like it is in another currency than the
/// database's default, so that the import stops before writing instead of storing, say, a
/// Japanese card statement's yen as US cents.
///
/// Two kinds of evidence count, and only together: text in a script tied to a currency without
/// minor units (Japanese kana in the header, Hangul in most descriptions), and amounts without
/// any minor digits (`-12800`) when the default currency has them (a bank prints `-128.00`).
enum CurrencyEvidence {
  /// Scripts whose text points to particular currencies, with the currencies to suggest.
  struct Script {
    var name: String
    var ranges: [ClosedRange<UInt32>]
    var currencies: [String]
    /// Whether descriptions in this script are evidence too (not for Cyrillic: spoken in
    /// many countries and common in shop names abroad; its header still counts).
    var fromDescriptions = true
  }

  static let scripts: [Script] = [
    // Kana before Han: Japanese text mixes both, Chinese text has no kana.
    Script(name: "Japanese", ranges: [0x3040...0x30FF, 0xFF66...0xFF9F], currencies: ["JPY"]),
    Script(name: "Korean", ranges: [0xAC00...0xD7AF, 0x1100...0x11FF], currencies: ["KRW"]),
    Script(name: "Chinese", ranges: [0x4E00...0x9FFF], currencies: ["CNY", "JPY", "TWD", "HKD"]),
    Script(name: "Thai", ranges: [0x0E00...0x0E7F], currencies: ["THB"]),
    Script(name: "Hebrew", ranges: [0x0590...0x05FF], currencies: ["ILS"]),
    Script(
      name: "Cyrillic", ranges: [0x0400...0x04FF],
      currencies: ["RUB", "UAH", "BGN", "RSD", "KZT", "BYN", "MKD"], fromDescriptions: false),
  ]

  /// The script of `text` that ranks first in `scripts` (kana before Han: Japanese text
  /// mixes both, Chinese has no kana), if any.
  static func script(of text: String) -> Script? {
    var best: Int?
    for scalar in text.unicodeScalars where scalar.value >= 0x0400 {
      for (rank, script) in scripts.enumerated()
      where rank < (best ?? scripts.count) && script.ranges.contains(where: { $0.contains(scalar.value) }) {
        best = rank
      }
      if best == 0 { break }
    }
    return best.map { scripts[$0] }
  }

  /// Whether an amount's text is a whole number beyond doubt: digits and a sign, no `.` or
  /// `,` (`1,200` could be 1.2 or 1200: no evidence either way).
  static func isWholeNumber(_ value: String) -> Bool {
    value.utf8.allSatisfy { $0 &- 0x30 < 10 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == 0x20 }
  }

  /// Why the file's currency is doubtful when it names none and the default would be used:
  /// a message and the `--currency` values to suggest; nil when nothing rules the default out.
  ///
  /// Neither kind of evidence alone does: round sums are common in dollars too (`50000`), and
  /// a statement in Japanese or Chinese script can be of a card billed in dollars (`45.75`).
  /// Together they do, when the script's first currency has no minor unit (Japanese: JPY,
  /// Korean: KRW) and the default has: a Japanese card statement is never stored as dollars.
  static func doubt(_ plan: Plan, default currency: Currency) -> (message: String, suggestions: [String])? {
    guard currency.minorUnits > 0 else { return nil }
    let amounts = [plan.amount, plan.debit, plan.credit].compactMap { $0 }.flatMap { plan.values($0) }
      .filter { value in value.utf8.contains { $0 &- 0x31 < 9 } }
    guard let example = amounts.first, amounts.allSatisfy(isWholeNumber) else { return nil }
    let header = plan.header.joined(separator: " ")
    var found: (script: Script, where: String)?
    if let script = script(of: header) {
      found = (
        script, "the header is in \(script.name) script (\"\(visibleControlCharacters(String(header.prefix(40))))\")"
      )
    } else {
      let texts = plan.descriptions.flatMap { plan.values($0) }
      var counts: [String: (Script, Int)] = [:]
      for text in texts {
        if let script = script(of: text), script.fromDescriptions {
          counts[script.name] = (script, (counts[script.name]?.1 ?? 0) + 1)
        }
      }
      if let (script, count) = counts.values.max(by: { $0.1 < $1.1 }), count * 2 > texts.count {
        found = (script, "most descriptions are in \(script.name) script")
      }
    }
    guard let (script, place) = found, !script.currencies.contains(currency.code),
      let first = script.currencies.first.flatMap(Currency.init(code:)), first.minorUnits == 0
    else { return nil }
    return (
      "\(place) and no amount has decimals (e.g. \"\(visibleControlCharacters(example))\"), as in \(first.code); "
        + "the file names no currency, and the database's default is \(currency.code)",
      script.currencies
    )
  }
}

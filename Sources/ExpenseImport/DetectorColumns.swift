import ExpenseCore

/// Detection steps that read what the columns hold, after their roles were named: a direction
/// column found by its values, the currency a header or the amounts state, and a fee that a
/// Net column already contains.
///
/// Why: names alone read some files silently wrong. "Transaction Type" holding debit/credit beside
/// an unsigned amount is not a known name, so every debit became money in; "Bedrag (EUR)" was
/// stored in the database's default currency; `--column Net=amount` took the fee off twice.
enum DetectorColumns {
  /// Words of a direction column that mean money out, as `RowMapper` reads them.
  static let outWords: Set<String> = [
    "af", "d", "debit", "dr", "debet", "out", "-", "soll", "s", "withdrawal", "uit", "db",
  ]
  /// Words of a direction column that mean money in.
  static let inWords: Set<String> = [
    "bij", "c", "credit", "cr", "in", "+", "haben", "h", "deposit", "k", "krediet",
  ]

  /// Whether a column's sampled values can play `role`: a direction column holds direction
  /// words as whole values; an amount, debit, credit or fee column holds amounts in at least
  /// half of its non-empty cells (the others are rejected per row).
  static func valuesFit(_ role: ColumnRole, _ values: [String]) -> Bool {
    switch role {
    case .direction:
      let words = outWords.union(inWords)
      return values.allSatisfy { words.contains($0.lowercased()) }
    case .amount, .debit, .credit, .fee:
      return values.filter(Detector.looksLikeAmount).count * 2 >= values.count
    default:
      return true
    }
  }

  /// Before the decimal mark: the currency (a zero-decimal one settles `¥1,200`).
  static func currency(_ plan: inout Plan, data: [Detector.Record], options: ImportOptions, file: String)
    throws(ImportError)
  {
    let named = Set(options.namedColumns.values)
    if options.columns == nil && !named.contains(.currency) { findCurrencyColumn(&plan, data: data) }
    try settleCurrency(&plan, data: data, options: options, file: file)
  }

  /// After the decimal mark: the direction column and the fee.
  static func refine(_ plan: inout Plan, data: [Detector.Record], options: ImportOptions) {
    let named = Set(options.namedColumns.values)
    if options.columns == nil && !named.contains(.direction) { findDirection(&plan, data: data) }
    dropFeeInsideNet(&plan, options: options)
  }

  /// A column whose every value is a direction word, beside an amount column that is never
  /// negative, is the direction column, whatever its header says.
  static func findDirection(_ plan: inout Plan, data: [Detector.Record]) {
    guard plan.direction == nil, let amount = plan.amount, plan.debit == nil, plan.credit == nil, !data.isEmpty
    else { return }
    let amounts = plan.values(amount)
    let parser = AmountParser(decimalMark: plan.decimalMark)
    let unsigned = amounts.allSatisfy { value in
      if case .success(let minor) = parser.parse(value, minorUnits: 4) { return minor >= 0 }
      return true
    }
    guard unsigned, !amounts.isEmpty else { return }
    let width = max(plan.width, plan.roles.count)
    for column in 0..<width where column != amount && column != plan.date {
      let role = column < plan.roles.count ? plan.roles[column] : nil
      guard role == nil || role == .status || role == .category || role == .description else { continue }
      let values = plan.values(column).map { $0.lowercased() }
      // Every row must say its direction; a column that is sometimes empty is something else.
      guard values.count == data.count, Set(values).isSubset(of: outWords.union(inWords)) else { continue }
      plan.assign(.direction, column)
      plan.resolveIndexes()
      plan.warnings.append(
        "column \(plan.columnName(column).map { "\"\(visibleControlCharacters($0))\"" } ?? "\(column + 1)") "
          + "holds debit/credit words: it gives each amount its sign")
      return
    }
  }

  /// A column without a role whose every value is an ISO 4217 code is the currency column.
  static func findCurrencyColumn(_ plan: inout Plan, data: [Detector.Record]) {
    guard plan.currencyColumn == nil, !data.isEmpty else { return }
    let width = max(plan.width, plan.roles.count)
    for column in 0..<width where column >= plan.roles.count || plan.roles[column] == nil {
      let values = plan.values(column)
      guard values.count == data.count,
        values.allSatisfy({ $0.utf8.count == 3 && $0 == $0.uppercased() && Currency(code: $0) != nil })
      else { continue }
      plan.assign(.currency, column)
      plan.resolveIndexes()
      return
    }
  }

  /// The file's currency when it has no currency column: from the amount columns' header
  /// (`Bedrag (EUR)`, `Amount (GBP)`, `Betrag in EUR`), else from a code or unambiguous sign in
  /// the amounts (`1.245,00 €`, `-£3.50`, `CHF 1'234.50`). `--currency` applies only when the
  /// file says nothing; when it contradicts the file the import stops.
  static func settleCurrency(_ plan: inout Plan, data: [Detector.Record], options: ImportOptions, file: String)
    throws(ImportError)
  {
    guard plan.currencyColumn == nil else {
      plan.currencyReason = "the currency column"
      return
    }
    var found: (Currency, String)?
    for column in [plan.amount, plan.debit, plan.credit].compactMap({ $0 }) {
      if let name = plan.columnName(column), let code = codeInHeader(name) {
        found = (code, "the header \"\(visibleControlCharacters(name))\"")
        break
      }
    }
    if found == nil {
      var codes: [Currency: String] = [:]
      for column in [plan.amount, plan.debit, plan.credit].compactMap({ $0 }) {
        for value in plan.values(column) {
          if let code = codeInAmount(value) { codes[code] = codes[code] ?? value }
        }
      }
      if codes.count == 1, let (code, value) = codes.first {
        found = (code, "amounts such as \"\(visibleControlCharacters(value))\"")
      }
    }
    let given = options.currency.flatMap { Currency(code: $0.trimmingASCIIWhitespace()) }
    if let (code, reason) = found {
      if let given, given != code {
        throw .undetectable(
          file: file,
          message: "the file says its amounts are in \(code.code) (\(reason)), but --currency says \(given.code)",
          hint: "drop --currency to use \(code.code), or check that this is the file you meant")
      }
      plan.currency = code
      plan.currencyReason = reason
    } else if given != nil {
      plan.currencyReason = "--currency"
    } else if let doubt = CurrencyEvidence.doubt(plan, default: plan.currency) {
      let others = doubt.suggestions.filter { $0 != plan.currency.code }.map { "--currency \($0)" }
      throw .undetectable(
        file: file, message: doubt.message,
        hint:
          "say which with \(others.joined(separator: " or ")) (or --currency \(plan.currency.code) to keep the default)"
      )
    } else {
      plan.currencyReason = "the database's default: the file names none"
    }
  }

  /// An ISO 4217 code standing as its own word in a header: `Amount (EUR)`, `Betrag in EUR`.
  static func codeInHeader(_ name: String) -> Currency? {
    let words = name.split(whereSeparator: { !$0.isLetter })
    for word in words where word.count == 3 && word.allSatisfy({ $0.isUppercase && $0.isASCII }) {
      if let code = Currency(code: String(word)) { return code }
    }
    return nil
  }

  /// Signs that name one currency only (`$`, `¥` and `kr` are shared by several).
  static let signs: [String: String] = [
    "€": "EUR", "£": "GBP", "₹": "INR", "₩": "KRW", "₪": "ILS", "₺": "TRY", "₱": "PHP",
  ]

  /// The currency an amount's text names: an ISO code before or after the number, or a sign
  /// of one currency only.
  static func codeInAmount(_ value: String) -> Currency? {
    // Most amounts are digits, marks and a sign: nothing to look for (this runs on every
    // sampled value, so it stays off Foundation's string search).
    if !value.utf8.contains(where: { $0 >= 0x80 || ($0 | 0x20) &- 0x61 < 26 }) { return nil }
    for (sign, code) in signs where value.unicodeScalars.contains(sign.unicodeScalars.first!) {
      return Currency(code: code)
    }
    let words = value.split(whereSeparator: { !$0.isLetter })
    for word in words where word.count == 3 {
      if let code = Currency(code: word.uppercased()) { return code }
    }
    return nil
  }

  /// A Net column (PayPal: Gross + Fee = Net) already has the fee taken off: charging the fee
  /// column again would count it twice.
  static func dropFeeInsideNet(_ plan: inout Plan, options: ImportOptions) {
    guard let amount = plan.amount, let fee = plan.fee, let name = plan.columnName(amount) else { return }
    let key = HeaderNames.normalize(name)
    guard key == "net" || key.hasPrefix("netamount") || key == "netto" || key == "nettobetrag" else { return }
    if options.namedColumns.values.contains(.fee) { return }
    plan.roles[fee] = nil
    plan.resolveIndexes()
    plan.warnings.append(
      "the amount is the Net column, which already has the fee taken off; the fee column is not charged again")
  }
}

import ExpenseCore

/// Detection steps that look at every sampled value of a column: date order, decimal mark, sign.
enum DetectorValues {
  static func values(_ data: [Detector.Record], _ column: Int?) -> [String] {
    guard let column, column >= 0 else { return [] }
    return data.compactMap { column < $0.fields.count ? trimmingASCIIBlanks($0.fields[column]) : nil }
      .filter { !$0.isEmpty }
  }

  static func dateFormat(_ plan: inout Plan, data: [Detector.Record], options: ImportOptions, file: String)
    throws(ImportError)
  {
    if let pattern = options.dateFormat {
      guard let format = DateFormat(pattern: pattern) else {
        throw .invalidOption(
          option: "--date-format",
          message: "'\(pattern)' is not a date pattern; use the tokens YYYY YY MM M DD D, e.g. DD.MM.YYYY or YYYYMMDD")
      }
      plan.dateFormat = format
      return
    }
    let name = plan.columnName(plan.date).map { "'\($0)'" } ?? "\(plan.date + 1)"
    let values = plan.values(plan.date).filter { $0.utf8.contains { $0 &- 0x30 < 10 } }
    guard !values.isEmpty else { return }
    // Failures per order, in `orders` order (an array: hashing the orders hashes their names).
    let orders = DateFormat.Order.allCases
    var failuresByOrder = [Int](repeating: 0, count: orders.count)
    var separator: UInt8 = 0
    var twoDigit = false
    var compact = false
    var named = true
    var failing: String?
    var unreadable = 0
    // Distinct values of the first and last part of numeric dates: a year takes few values in
    // one export, a day many (how `DD.MM.YY` is told from `YY.MM.DD`).
    var firstParts = Set<Int>()
    var lastParts = Set<Int>()
    for value in values {
      var text = value
      let tokens = text.withUTF8 { DateTokens($0) }
      guard let tokens else {
        unreadable += 1
        failing = failing ?? value
        continue
      }
      if separator == 0 { separator = tokens.separatorByte }
      if tokens.count == 3 && tokens.nameIndex < 0 {
        firstParts.insert(tokens.values.0)
        lastParts.insert(tokens.values.2)
      }
      if tokens.count == 1 { compact = true }
      if tokens.nameIndex < 0 { named = false }
      if tokens.count == 3 && tokens.nameIndex < 0 && (tokens.widths.0 == 2 || tokens.widths.2 == 2)
        && tokens.widths.0 != 4 && tokens.widths.2 != 4
      {
        twoDigit = true
      }
      for k in orders.indices where tokens.date(orders[k]) == nil {
        failuresByOrder[k] += 1
        if failing == nil && failuresByOrder[k] == values.count { failing = value }
      }
    }
    // A few bad values (typos) must not block detection; they are reported per row later.
    let fewest = failuresByOrder.min() ?? 0
    let tolerated = max(1, values.count / 10)
    var ok = Set(orders.indices.filter { failuresByOrder[$0] == fewest }.map { orders[$0] })
    if fewest + unreadable > tolerated || fewest + unreadable >= values.count {
      ok = []
      failing = failing ?? values.first
    }
    if ok.isEmpty, let failing {
      throw .undetectable(
        file: file,
        message:
          "the dates in column \(name) do not match a known format (e.g. \"\(visibleControlCharacters(failing))\")",
        hint: "give the format with --date-format, e.g. --date-format DD.MM.YYYY or --date-format MM/DD/YYYY")
    }
    let sep: Character? = compact ? nil : (separator == 0 ? "-" : Character(UnicodeScalar(separator)))
    func format(_ order: DateFormat.Order) -> DateFormat {
      DateFormat(order: order, separator: named ? " " : sep, twoDigitYear: twoDigit)
    }
    if named {
      plan.dateFormat = format(.dmy)
      plan.dateFormat.separator = " "
      return
    }
    if ok.count == 1 {
      plan.dateFormat = format(ok.first!)
      return
    }
    if ok.contains(.ymd) && !twoDigit {
      plan.dateFormat = format(.ymd)
      return
    }
    if twoDigit && ok.count > 1 && values.count >= 3 {
      // Two-digit years: the end that behaves like a year (at most 3 distinct values, against
      // more at the other end) decides between year-first and year-last.
      if lastParts.count <= 3 && firstParts.count > lastParts.count {
        ok.remove(.ymd)
      } else if firstParts.count <= 3 && lastParts.count > firstParts.count {
        ok = ok.intersection([.ymd])
      }
      if ok.count == 1 {
        plan.dateFormat = format(ok.first!)
        return
      }
    }
    if ok.contains(.dmy) && ok.contains(.mdy) && separator == UInt8(ascii: ".") && !ok.contains(.ymd) {
      // Dotted dates are day-first by convention (German, Swiss, Nordic banks).
      plan.dateFormat = format(.dmy)
      return
    }
    let choices = ok.sorted { $0.rawValue < $1.rawValue }.map { format($0).description }
    throw .undetectable(
      file: file,
      message: "the dates in column \(name) fit \(choices.joined(separator: " and ")) (no day above 12 in the sample)",
      hint: "say which with " + choices.map { "--date-format \($0)" }.joined(separator: " or "))
  }

  static func decimalMark(_ plan: inout Plan, data: [Detector.Record], options: ImportOptions, file: String)
    throws(ImportError)
  {
    if let mark = options.decimalMark {
      switch mark {
      case ".", "dot", "period", "point": plan.decimalMark = 0x2E
      case ",", "comma": plan.decimalMark = 0x2C
      default:
        throw .invalidOption(option: "--decimal-mark", message: "'\(mark)' must be . or ,")
      }
      return
    }
    var dot: String?
    var comma: String?
    var ambiguous: String?
    for column in [plan.amount, plan.debit, plan.credit, plan.fee] {
      for value in plan.values(column) {
        switch AmountParser.vote(value) {
        case .dot: dot = dot ?? value
        case .comma: comma = comma ?? value
        case .ambiguous: ambiguous = ambiguous ?? value
        case .none: break
        }
      }
    }
    if let dot, let comma {
      throw .undetectable(
        file: file, message: "amounts use both . and , as decimal mark (\"\(dot)\" and \"\(comma)\")",
        hint: "say which with --decimal-mark . or --decimal-mark ,")
    }
    if comma != nil {
      plan.decimalMark = 0x2C
    } else if dot != nil {
      plan.decimalMark = 0x2E
    } else if let ambiguous, plan.currencyColumn == nil, plan.currency.minorUnits == 0 {
      // A currency without decimals (JPY, KRW): `1,200` can only be grouped thousands.
      plan.decimalMark = ambiguous.contains(",") ? 0x2E : 0x2C
    } else if let ambiguous {
      throw .undetectable(
        file: file,
        message: "cannot tell the decimal mark: \"\(ambiguous)\" could be a thousands separator or a decimal mark",
        hint: "say which with --decimal-mark . or --decimal-mark ,")
    }
  }

  /// Which sign is spending in a single amount column, from the file's evidence
  /// (`SignEvidence`): `--spending` when given, else what the file proves, else negative (as
  /// most bank accounts); the import stops before writing only when the evidence conflicts or
  /// a mostly positive file shows none.
  /// A running balance column the amounts move, read as the account's balance after each row
  /// (one amount column only: with debit and credit columns the file's own sign is not in
  /// question, and no such file in the fixtures states a balance). Stored negated when it moves
  /// against the amounts as stored (money out negative): a card's debt.
  static func runningBalance(_ plan: inout Plan, data: [Detector.Record]) {
    guard let amount = plan.amount, plan.direction == nil,
      let found = SignEvidence(plan: plan, data: data).runningBalance(amount: amount)
    else { return }
    plan.balanceColumn = found.index
    let storedWithFile = plan.sign != .signedPositiveIsSpending
    plan.balanceNegated = found.withAmounts != storedWithFile
  }

  static func signConvention(_ plan: inout Plan, data: [Detector.Record], options: ImportOptions, file: String)
    throws(ImportError)
  {
    if plan.amount != nil && plan.direction != nil {
      plan.sign = .direction
      plan.signReason = "the direction column"
    } else if plan.amount != nil {
      if let spending = options.spending {
        plan.sign = spending == .positive ? .signedPositiveIsSpending : .signedNegativeIsSpending
        plan.signReason = "--spending"
        return
      }
      switch SignEvidence(plan: plan, data: data).verdict() {
      case .negativeIsSpending(let reason):
        plan.sign = .signedNegativeIsSpending
        plan.signReason = reason
      case .positiveIsSpending(let reason):
        plan.sign = .signedPositiveIsSpending
        plan.signReason = reason
      case .unclear(let seen):
        let name = plan.amount.flatMap(plan.columnName).map { "\"\(visibleControlCharacters($0))\"" } ?? "amount"
        throw .undetectable(
          file: file,
          message: "cannot tell whether positive amounts in column \(name) are charges or money in: \(seen)",
          hint:
            "say which with --spending positive (charges are positive) or --spending negative (charges are negative)"
        )
      }
    } else {
      plan.sign = .debitCredit
      plan.signReason = "the debit and credit columns"
    }
  }
}

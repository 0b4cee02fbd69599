import ExpenseCore

/// The amount stage of `map` (see the rules in `RowMapper`'s comment).
extension RowMapper {
  /// The signed amount in minor units: one signed column, amount + direction, or debit and
  /// credit, with a fee charged on top; nil (and `failure` set) for a bad amount.
  @inline(__always)
  mutating func amount(_ reader: CSVReader, _ currency: Currency) -> Int64? {
    let units = currency.minorUnits
    var minor: Int64
    switch plan.sign {
    case .signedNegativeIsSpending, .signedPositiveIsSpending, .direction:
      if let v = AmountParser.plain(RowMapper.cell(reader, plan.amount), minorUnits: units, mark: plan.decimalMark) {
        minor = v
      } else {
        switch amountValue(reader, plan.amount, units, currency, emptyIsZero: false) {
        case .success(let v): minor = v
        case .failure(let issue): return fail(issue)
        }
      }
      switch plan.sign {
      case .signedPositiveIsSpending: minor = -minor
      case .direction:
        let word = RowMapper.trimmedLowercase(RowMapper.cell(reader, plan.direction))
        let magnitude = minor < 0 ? -minor : minor
        if DetectorColumns.outWords.contains(word) {
          minor = -magnitude
        } else if DetectorColumns.inWords.contains(word) {
          minor = magnitude
        } else {
          return fail(
            issue(
              .badAmount, reader, plan.direction, "not a direction",
              "expected Af/Bij, D/C, Debit/Credit, DR/CR, Out/In or -/+"))
        }
      default: break
      }
    case .debitCredit:
      // Both cells empty is a row without an amount, not a zero.
      if RowMapper.isBlankCell(RowMapper.cell(reader, plan.debit))
        && RowMapper.isBlankCell(RowMapper.cell(reader, plan.credit))
      {
        return fail(
          issue(
            .badAmount, reader, plan.debit ?? plan.credit, "both the debit and the credit cell are empty",
            "every row needs an amount in one of them"))
      }
      var debit: Int64 = 0
      var credit: Int64 = 0
      switch amountValue(reader, plan.debit, units, currency, emptyIsZero: true) {
      case .success(let v): debit = v < 0 ? -v : v
      case .failure(let issue): return fail(issue)
      }
      switch amountValue(reader, plan.credit, units, currency, emptyIsZero: true) {
      case .success(let v): credit = v < 0 ? -v : v
      case .failure(let issue): return fail(issue)
      }
      minor = credit &- debit
    }
    if plan.fee != nil {
      switch amountValue(reader, plan.fee, units, currency, emptyIsZero: true) {
      case .success(let v): minor = minor &- (v < 0 ? -v : v)
      case .failure(let issue): return fail(issue)
      }
    }
    return minor
  }

  func amountValue(_ reader: CSVReader, _ column: Int?, _ units: Int, _ currency: Currency, emptyIsZero: Bool)
    -> Result<Int64, ImportIssue>
  {
    guard let column else { return .success(0) }
    let mark = plan.decimalMark == 0x2C ? "," : "."
    switch parser.parse(RowMapper.cell(reader, column), minorUnits: units) {
    case .success(let v): return .success(v)
    case .failure(.empty):
      if emptyIsZero { return .success(0) }
      return .failure(issue(.badAmount, reader, column, "the amount is empty", "every row needs an amount"))
    case .failure(.tooManyDecimals):
      return .failure(
        issue(
          .badAmount, reader, column, "more decimals than \(currency.code) has (\(units))",
          "amounts in this file are read with '\(mark)' as decimal mark; use --decimal-mark to override"))
    case .failure(.outOfRange):
      return .failure(issue(.badAmount, reader, column, "the amount is too large", "check the value"))
    case .failure(.invalid):
      return .failure(
        issue(
          .badAmount, reader, column, "not an amount",
          "amounts in this file are read with '\(mark)' as decimal mark; use --decimal-mark to override"))
    }
  }
}

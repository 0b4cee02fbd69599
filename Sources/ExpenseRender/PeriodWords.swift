import ExpenseCore

/// A quarterly or yearly budget in words, the same in every format: the card's first part
/// (`$1,230.00 of $2,400.00 in 2026`, what the period spent of its amount, then `$45.00 this
/// month`) and the note under a table, which says what the row's left and percent count and
/// what the month's total counts of it.
enum PeriodWords {
  /// The period's figures, when `row` is budgeted by the quarter or the year.
  struct Figures {
    var period: BudgetPeriod
    var name: String
    var budget: Int64
    var spent: Int64
    var share: Int64
  }

  static func figures(_ row: CategoryBenchmark) -> Figures? {
    guard let period = row.period, period != .month, let from = row.periodFrom, let budget = row.budgetMinor,
      let spent = row.periodSpentMinor, let share = row.monthShareMinor
    else { return nil }
    return Figures(period: period, name: period.name(containing: from), budget: budget, spent: spent, share: share)
  }

  /// `$1,230.00 of $2,400.00 in 2026`, `$45.00 this month`: the amount parts' first two.
  static func parts(_ row: CategoryBenchmark, money: (Int64, Currency) -> String, currency: Currency) -> [String]? {
    guard let f = figures(row) else { return nil }
    return [
      "\(money(f.spent, currency)) of \(money(f.budget, currency)) in \(f.name)",
      "\(money(row.spentMinor, currency)) this month",
    ]
  }

  /// One sentence per category budgeted by the period: `Travel: yearly $2,400.00 for 2026;
  /// left and used count $1,230.00 spent in 2026; the total counts this month's share,
  /// $203.84`.
  static func notes(
    _ rows: [CategoryBenchmark], currency: Currency, name: (String) -> String, money: (Int64, Currency) -> String
  ) -> [String] {
    rows.compactMap { row in
      guard let f = figures(row) else { return nil }
      return "\(name(row.category)): \(f.period.adjective) \(money(f.budget, currency)) for \(f.name); "
        + "left and used count \(money(f.spent, currency)) spent in \(f.name); "
        + "the total counts this month's share, \(money(f.share, currency))"
    }
  }
}

import ExpenseCore
import ExpenseStore

/// Budgets from history: the average a category spent over its last complete months, as the
/// amount of `budget set --from-average N`, and `budget suggest` for every category that spends
/// without a budget. The arithmetic is `BudgetSuggestion`'s; this reads the totals it needs.
extension ExpenseService {
  /// What `category` spent on average in the last `months` complete months before today's, in
  /// `currency` (default: the store's), rounded to the currency's unit
  /// (`ServiceError.nothingToAverage` when it spent nothing in them).
  public func averageSpending(category: String, months: Int, currency code: String?) throws -> BudgetSuggestion {
    try store.consistently {
      let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
      let stored = try store.categoryNames().known(category) ?? category
      let found = try suggestions(months: months, category: stored).first { $0.currency == currency }
      guard let found else { throw ServiceError.nothingToAverage(category: category, months: months) }
      return found
    }
  }

  /// Sets the budget of `category` to its average over the last `months` complete months
  /// (`budget set CATEGORY --from-average N`); returns the budget and the average it came from.
  /// A quarterly or yearly budget (`period`, or the category's) is the average times the
  /// period's months.
  public func setBudgetFromAverage(
    category: String, months: Int, month: Month?, currency code: String?, rollover: RolloverMode? = nil,
    period: BudgetPeriod? = nil
  ) throws -> (Budget, BudgetSuggestion) {
    try store.atomically {
      let average = try averageSpending(category: category, months: months, currency: code)
      let stored = try store.categoryNames().known(category) ?? category
      let length = try period ?? PeriodSettings.of(store, category: stored, currency: average.currency)
      let budget = try setBudget(
        category: category, amountMinor: Rounding.scale(average.amountMinor, by: Int64(length.monthCount), over: 1),
        month: month, currency: average.currency, rollover: rollover, period: period)
      return (budget, average)
    }
  }

  /// A suggestion for every category with spending in the last `months` complete months and no
  /// budget in that currency (`budget suggest`).
  public func budgetSuggestions(months: Int = 3) throws -> [BudgetSuggestion] {
    try store.consistently {
      let budgeted = Set(try store.budgets().map { "\($0.amount.currency.code):\(CategoryName.key($0.category))" })
      return try suggestions(months: months, category: nil).filter {
        !budgeted.contains("\($0.currency.code):\(CategoryName.key($0.category))")
      }
    }
  }

  private func suggestions(months count: Int, category: String?) throws -> [BudgetSuggestion] {
    let today = clock.today()
    let start = try store.historyStart().values.min()
    let months = BudgetSuggestion.window(months: count, today: today, historyStart: start)
    guard let first = months.first, let last = months.last else { return [] }
    let totals = try store.monthlyTotals(from: first, through: last, daily: false)
    return BudgetSuggestion.suggestions(
      totals: totals, months: months, kinds: try store.categoryKinds(), category: category)
  }
}

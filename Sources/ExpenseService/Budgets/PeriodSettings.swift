import ExpenseCore
import ExpenseStore

/// Where each category's budget period lives, and the one reading of it: a setting per
/// (currency, category), `period:CUR:KEY` (`KEY`: `CategoryName.key`, as `Rollovers`) =
/// `quarter`, `year` or `month` (no setting: `month`).
///
/// Like a rollover mode, the period belongs to the category's budget in every month: a budget
/// by the year is one every-month amount for each calendar year, so it has no month overrides
/// (`setBudget` refuses them) and does not roll over (its period is already its own carry).
enum PeriodSettings {
  static let prefix = "period:"

  static func key(category: String, currency: Currency) -> String {
    CategorySettings.key(prefix, category: category, currency: currency)
  }

  /// The quarterly and yearly budgets, under each budget's stored name.
  static func load(_ store: any LedgerStore) throws -> [CategoryPeriod] {
    var result: [CategoryPeriod] = []
    for budget in try CategorySettings.budgeted(store) {
      let period = try of(store, category: budget.category, currency: budget.amount.currency)
      if period != .month {
        result.append(CategoryPeriod(category: budget.category, currency: budget.amount.currency, period: period))
      }
    }
    return result
  }

  /// The period of `category`'s budget in `currency` (`month` when none was set).
  static func of(_ store: any LedgerStore, category: String, currency: Currency) throws -> BudgetPeriod {
    guard let value = try store.setting(key(category: category, currency: currency)) else { return .month }
    return BudgetPeriod(rawValue: value) ?? .month
  }

  /// Sets the period of `category`'s budget in `currency` (a monthly budget that never had
  /// another period keeps no setting).
  static func set(_ period: BudgetPeriod, category: String, currency: Currency, in store: any LedgerStore) throws {
    let key = key(category: category, currency: currency)
    if period == .month, try store.setting(key) == nil { return }
    try store.setSetting(key, period.rawValue)
  }
}

import ExpenseCore
import ExpenseStore

/// Where each category's rollover mode lives, and the one reading of it: a setting per
/// (currency, category), `rollover:CUR:KEY` (`KEY`: `CategoryName.key`, so respelling the
/// category keeps it) = `MODE SINCE` (`all 2026-10`).
///
/// Why a setting and no table of its own: a mode is one small value per budgeted category
/// that every store already keeps, copies (`expenses copy`) and backs up, so no store needed
/// a new table; the carry itself is never stored (`CarryCalculator`).
enum Rollovers {
  static let prefix = "rollover:"

  static func key(category: String, currency: Currency) -> String {
    CategorySettings.key(prefix, category: category, currency: currency)
  }

  /// The rollover of every budgeted (category, currency) that has one on, under the budget's
  /// stored name.
  static func load(_ store: any LedgerStore) throws -> [Rollover] {
    var result: [Rollover] = []
    for budget in try CategorySettings.budgeted(store) {
      let key = key(category: budget.category, currency: budget.amount.currency)
      guard let rollover = try read(store, key: key, budget: budget), rollover.mode != .off else { continue }
      result.append(rollover)
    }
    return result
  }

  /// The stored rollover of `budget`'s category and currency (mode `off` when none was set).
  static func of(_ store: any LedgerStore, budget: Budget) throws -> Rollover {
    let key = key(category: budget.category, currency: budget.amount.currency)
    return try read(store, key: key, budget: budget)
      ?? Rollover(
        category: budget.category, currency: budget.amount.currency, mode: .off, since: Month.supportedRange.lowerBound)
  }

  private static func read(_ store: any LedgerStore, key: String, budget: Budget) throws -> Rollover? {
    guard let value = try store.setting(key) else { return nil }
    let parts = value.split(separator: " ")
    guard let first = parts.first, let mode = RolloverMode(rawValue: String(first)) else { return nil }
    let since = parts.count > 1 ? (try? Month.parse(String(parts[1]))) : nil
    return Rollover(
      category: budget.category, currency: budget.amount.currency, mode: mode,
      since: since ?? Month.supportedRange.lowerBound)
  }

  /// Sets the mode of `budget`'s category and currency. Turning it on starts the carry in
  /// `month` (its first month's carry in is zero); changing between `surplus` and `all` keeps
  /// the month it started.
  static func set(_ mode: RolloverMode, for budget: Budget, from month: Month, in store: any LedgerStore) throws {
    let current = try of(store, budget: budget)
    let since = current.mode != .off && mode != .off ? current.since : month
    try store.setSetting(
      key(category: budget.category, currency: budget.amount.currency), "\(mode.rawValue) \(since.description)")
  }
}

import ExpenseCore
import ExpenseStore

/// What rollover modes and budget periods share: each is a setting per budgeted (currency,
/// category), keyed `PREFIX` + `CUR:KEY` with `KEY` the category's `CategoryName.key`, so
/// respelling the category keeps it.
enum CategorySettings {
  static func key(_ prefix: String, category: String, currency: Currency) -> String {
    "\(prefix)\(currency.code):\(CategoryName.key(category))"
  }

  /// One budget per budgeted (currency, category), the first stored: the name the category's
  /// settings are reported under.
  static func budgeted(_ store: any LedgerStore) throws -> [Budget] {
    var seen = Set<String>()
    return try store.budgets().filter {
      seen.insert(key("", category: $0.category, currency: $0.amount.currency)).inserted
    }
  }
}

import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Sets the monthly budget of `category` (every month, or only `month`) from a typed amount in
  /// `currency` (default: the store's); returns the budget as stored.
  public func setBudget(category: String, amount: String, month: Month?, currency code: String?) throws -> Budget {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
    return try saveBudget(Budget(category: category, amount: try Money.parse(amount, currency: currency), month: month))
  }

  /// Sets a budget of `amountMinor` in `currency`, or in the database's default currency when
  /// none is given, read in the same transaction as the write (a default changed meanwhile
  /// cannot split them): `PUT /v1/budgets/{category}`.
  public func setBudget(category: String, amountMinor: Int64, month: Month?, currency: Currency?) throws -> Budget {
    try store.atomically {
      let currency = try currency ?? store.defaultCurrency()
      return try saveBudget(
        Budget(category: category, amount: Money(minor: amountMinor, currency: currency), month: month))
    }
  }

  /// Saves `budget` and answers with what was stored (under the category's known spelling).
  public func saveBudget(_ budget: Budget) throws -> Budget {
    try store.saveBudget(budget)
    let key = CategoryName.key(budget.category)
    return try store.budgets().first {
      CategoryName.key($0.category) == key && $0.month == budget.month && $0.amount.currency == budget.amount.currency
    } ?? budget
  }

  public func budgets() throws -> [Budget] { try store.budgets() }

  /// Every budget of the category `name` names (each month's and currency's), however it is
  /// spelled; `StoreError.budgetNotFound` when it has none.
  public func budgets(of name: String) throws -> [Budget] {
    let key = CategoryName.key(name)
    let budgets = try store.budgets().filter { CategoryName.key($0.category) == key }
    guard !budgets.isEmpty else { throw StoreError.budgetNotFound(category: name, month: nil) }
    return budgets
  }

  /// Removes a budget (the every-month one, or `month`'s override; one currency's, when given).
  public func removeBudget(category: String, month: Month?, currency code: String?) throws {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) }
    try store.removeBudget(category: category, month: month, currency: currency)
  }

  public func removeBudget(category: String, month: Month?, currency: Currency?) throws {
    try store.removeBudget(category: category, month: month, currency: currency)
  }

  /// The store's default currency.
  public func defaultCurrency() throws -> Currency { try store.defaultCurrency() }
}

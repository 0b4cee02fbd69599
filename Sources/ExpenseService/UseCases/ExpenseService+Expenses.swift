import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Records one expense typed by hand. `amount` is typed as a person says it: what was spent,
  /// or money in with a leading '+' (see `signedMinor`); `currency` defaults to the store's.
  public func addExpense(
    date: CivilDate, amount: String, description: String, category: String?, account: String?,
    currency code: String?
  ) throws -> Expense {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
    let money = Money(minor: try ExpenseService.signedMinor(amount, currency: currency), currency: currency)
    return try store.addExpense(
      Expense(date: date, amount: money, description: description, category: category, account: account))
  }

  /// A typed amount as stored: typed amounts are what was spent, stored ones are signed
  /// (negative = out), so '4.50' is -450 and '+25' is 2500.
  public static func signedMinor(_ text: String, currency: Currency) throws(CoreError) -> Int64 {
    let money = try Money.parse(text.hasPrefix("+") ? String(text.dropFirst()) : text, currency: currency)
    return text.hasPrefix("+") || text.hasPrefix("-") ? money.minor : -money.minor
  }

  /// Edits expense `id`; a typed `amount` is read in the expense's own currency.
  public func editExpense(
    id: Int64, date: CivilDate?, amount: String?, description: String?, category: String?, account: String?
  ) throws -> Expense {
    let stored = try expense(id: id)
    var change = ExpenseEdit(date: date, description: description, category: category, account: account)
    if let amount { change.amountMinor = try ExpenseService.signedMinor(amount, currency: stored.amount.currency) }
    return try store.editExpense(id: id, change)
  }

  /// Applies a change given in stored terms (the API's signed `amountMinor`).
  public func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense {
    try store.editExpense(id: id, change)
  }

  /// Deletes these expenses, all or none; returns them as they were. The parts of a split
  /// transaction go together: all named, or `wholeSplits` adds the ones not named; otherwise
  /// `StoreError.splitPart` refuses and nothing changes.
  public func deleteExpenses(ids: [Int64], wholeSplits: Bool = false) throws -> [Expense] {
    try store.deleteExpenses(ids: ids, wholeSplits: wholeSplits)
  }

  /// Expenses by date then id: all, one month's or one category's, at most `limit`.
  public func expenses(month: Month? = nil, category: String? = nil, limit: Int? = nil) throws -> [Expense] {
    try namingPairs(try store.expenses(month: month, category: category, limit: limit))
  }

  /// Expense `id`; `StoreError.expenseNotFound` when there is none.
  public func expense(id: Int64) throws -> Expense {
    guard let expense = try store.expense(id: id) else { throw StoreError.expenseNotFound([id]) }
    return try namingPairs([expense]).first ?? expense
  }

  /// One page of expenses after `cursor`.
  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) throws -> ExpensePage {
    var page = try store.expensePage(month: month, category: category, after: cursor, limit: limit)
    page.expenses = try namingPairs(page.expenses)
    return page
  }

  /// How many expenses are stored.
  public func expenseCount() throws -> Int { try store.expenseCount(month: nil) }
}

import ExpenseCore

/// What `edit` changes in one row; `nil` fields stay as they are. A blank `category` or
/// `account` clears it.
public struct ExpenseEdit: Hashable, Sendable {
  public var date: CivilDate?
  /// Signed minor units in the row's own currency.
  public var amountMinor: Int64?
  public var description: String?
  public var category: String?
  public var account: String?

  public init(
    date: CivilDate? = nil, amountMinor: Int64? = nil, description: String? = nil, category: String? = nil,
    account: String? = nil
  ) {
    self.date = date
    self.amountMinor = amountMinor
    self.description = description
    self.category = category
    self.account = account
  }

  public var isEmpty: Bool {
    date == nil && amountMinor == nil && description == nil && category == nil && account == nil
  }
}

extension ExpenseEdit {
  /// Whether the edit moves `expense` to another day or changes its amount: what a part of a
  /// split transaction refuses alone.
  public func movesOrResizes(_ expense: Expense) -> Bool {
    (date.map { $0 != expense.date } ?? false) || (amountMinor.map { $0 != expense.amount.minor } ?? false)
  }

  /// `expense` with the edit applied, and where its category now comes from: a category set or
  /// cleared here is the user's own (`.hand`, or `.none` when cleared), spelled as the known
  /// category it names (`names`, which learns a new one); a blank account clears it. Every
  /// store's `editExpense` writes exactly this.
  public func applied(to expense: Expense, source: CategorySource, names: inout CategoryNames) -> (
    Expense, CategorySource
  ) {
    var new = expense
    var newSource = source
    if let date { new.date = date }
    if let amountMinor { new.amount.minor = amountMinor }
    if let description { new.description = description }
    if let account { new.account = account.trimmingCharacters(in: .whitespaces).isEmpty ? nil : account }
    if let category {
      new.category = names.canonical(category)
      newSource = new.category == nil ? .none : .hand
    }
    return (new, newSource)
  }
}

import ExpenseCore

/// One page of expenses and where the next one starts.
public struct ExpensePage: Sendable, Equatable {
  public var expenses: [Expense]
  /// Opaque: pass it back as `after` for the next page; `nil` on the last page.
  public var nextCursor: String?

  public init(expenses: [Expense], nextCursor: String?) {
    self.expenses = expenses
    self.nextCursor = nextCursor
  }
}

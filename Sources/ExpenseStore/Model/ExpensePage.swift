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

extension ExpensePage {
  /// The cursor after the row with `key`: `k` and the key in base 36, short, and plainly not an
  /// id to be confused with one. Every store pages on the row key with these cursors.
  public static func cursor(afterKey key: Int64) -> String { "k" + String(key, radix: 36) }

  /// The row key a cursor names (`StoreError.invalidCursor` for anything `cursor(afterKey:)`
  /// did not make); nil for no cursor (the first page).
  public static func key(of cursor: String?) throws(StoreError) -> Int64? {
    guard let cursor else { return nil }
    guard cursor.hasPrefix("k"), cursor.count <= 20, let key = Int64(cursor.dropFirst(), radix: 36) else {
      throw .invalidCursor(cursor)
    }
    return key
  }
}

import ExpenseCore

/// A category as `expenses categories` lists it.
public struct CategorySummary: Hashable, Sendable, Codable {
  public var name: String
  public var kind: CategoryKind
  public var expenseCount: Int

  public init(name: String, kind: CategoryKind, expenseCount: Int) {
    self.name = name
    self.kind = kind
    self.expenseCount = expenseCount
  }
}

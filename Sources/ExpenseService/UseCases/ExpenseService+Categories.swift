import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Every category with its kind and number of expenses.
  public func categories() throws -> [CategorySummary] { try store.categories() }

  public func setCategoryKind(_ name: String, kind: CategoryKind) throws { try store.setCategoryKind(name, kind: kind) }

  /// Forgets a category no expense uses; `false` when there was nothing to forget.
  public func forgetCategory(_ name: String) throws -> Bool { try store.forgetCategory(name) }

  /// `categories remove`: forgets a category nothing uses any more (its kind), throwing
  /// `categoryNotFound` for a name no category has and `categoryInUse` while rows, budgets or
  /// rules name it.
  public func removeCategory(_ name: String) throws {
    guard try store.forgetCategory(name) else { throw StoreError.categoryNotFound(name) }
  }

  /// Whether a category of this name (any spelling) exists: what `categories set-kind` says
  /// before it makes a new one.
  public func categoryExists(_ name: String) throws -> Bool {
    try store.categories().contains { CategoryName.key($0.name) == CategoryName.key(name) }
  }

  /// A known category that `name` is probably a misspelling of (a front end warns with it).
  public func categorySuggestion(for name: String) throws -> String? { try store.categorySuggestion(for: name) }
}

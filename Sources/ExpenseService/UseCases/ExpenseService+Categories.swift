import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Every category with its kind and number of expenses.
  public func categories() throws -> [CategorySummary] { try store.categories() }

  public func setCategoryKind(_ name: String, kind: CategoryKind) throws { try store.setCategoryKind(name, kind: kind) }

  /// Forgets a category no expense uses; `false` when there was nothing to forget.
  public func forgetCategory(_ name: String) throws -> Bool { try store.forgetCategory(name) }

  /// A known category that `name` is probably a misspelling of (a front end warns with it).
  public func categorySuggestion(for name: String) throws -> String? { try store.categorySuggestion(for: name) }
}

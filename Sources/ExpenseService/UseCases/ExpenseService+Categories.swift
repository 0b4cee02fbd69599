import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Every category with its kind and number of expenses.
  public func categories() throws -> [CategorySummary] { try store.categories() }

  /// The category `name` names, however it is spelled (case, accents: `CategoryName.key`); nil
  /// when there is none.
  public func category(named name: String) throws -> CategorySummary? {
    let key = CategoryName.key(name)
    return try store.categories().first { CategoryName.key($0.name) == key }
  }

  /// Sets a category's kind, making the category when it is new (what `PUT
  /// /v1/categories/{category}` promises).
  public func setCategoryKind(_ name: String, kind: CategoryKind) throws {
    try recording("kind") {
      let before = try self.kind(of: name)
      try store.setCategoryKind(name, kind: kind)
      let after = try self.kind(of: name)
      let effect: History.Recorded? =
        before == after ? nil : .effect(.kind(category: name, before: before, after: after))
      return ((), "kind \(name): \((before ?? History.defaultKind(name)).rawValue) → \(kind.rawValue)", effect)
    }
  }

  /// `categories set-kind`: sets the kind of a known category; a name no category has (in any
  /// spelling) is refused with `categoryNotCreated` (naming a close one) unless `create` asks
  /// for the new category. Returns whether the category was new.
  @discardableResult
  public func setCategoryKind(_ name: String, kind: CategoryKind, create: Bool) throws -> Bool {
    let exists = try categoryExists(name)
    if !exists && !create {
      throw ServiceError.categoryNotCreated(
        name: name, kind: kind.rawValue, suggestion: try categorySuggestion(for: name))
    }
    try setCategoryKind(name, kind: kind)
    return !exists
  }

  /// Throws `unknownCategory` (with a close name) when a filter names a category that does not
  /// exist in any spelling; `Uncategorized` (the rows without one) always exists.
  public func checkCategoryFilter(_ name: String) throws {
    guard name != uncategorizedName, try !categoryExists(name) else { return }
    var suggestion = try categorySuggestion(for: name)
    if suggestion == nil, CategoryName.key(name) == CategoryName.key(uncategorizedName) {
      suggestion = uncategorizedName
    }
    throw ServiceError.unknownCategory(name: name, suggestion: suggestion)
  }

  /// Forgets a category no expense uses; `false` when there was nothing to forget.
  public func forgetCategory(_ name: String) throws -> Bool {
    try recording("categories remove") {
      let before = try kind(of: name)
      let forgotten = try store.forgetCategory(name)
      let effect: History.Recorded? =
        forgotten && before != nil ? .effect(.kind(category: name, before: before, after: nil)) : nil
      return (forgotten, "categories remove \(name)", effect)
    }
  }

  /// `categories remove`: forgets a category nothing uses any more (its kind), throwing
  /// `categoryNotFound` for a name no category has and `categoryInUse` while rows, budgets or
  /// rules name it.
  public func removeCategory(_ name: String) throws {
    guard try forgetCategory(name) else { throw StoreError.categoryNotFound(name) }
  }

  /// Whether a category of this name (any spelling) exists: what `categories set-kind` says
  /// before it makes a new one.
  public func categoryExists(_ name: String) throws -> Bool {
    try store.categories().contains { CategoryName.key($0.name) == CategoryName.key(name) }
  }

  /// A known category that `name` is probably a misspelling of (a front end warns with it).
  public func categorySuggestion(for name: String) throws -> String? { try store.categoryNames().suggestion(for: name) }
}

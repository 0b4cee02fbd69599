import ExpenseCore
import ExpenseStore
import GRDB

/// Writes the HTTP API needs beyond the CLI's: a rule put at an id, a category forgotten.
extension AppDatabase {
  /// Creates the rule with this id, or replaces its pattern, category and field.
  @discardableResult
  public func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try write { db in
      var names = try AppDatabase.categoryNames(db)
      let category = names.canonical(category) ?? category
      try db.execute(
        sql: """
          INSERT INTO rule (id, pattern, category, field) VALUES (?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET pattern = excluded.pattern, category = excluded.category,
                                         field = excluded.field
          """,
        arguments: [id, pattern, category, field.rawValue])
      return CategoryRule(id: id, pattern: pattern, category: category, field: field)
    }
  }

  /// Forgets a category (its kind), once no expense, budget or rule names it: throws
  /// `categoryInUse` while one does. Returns false when no category has this name.
  @discardableResult
  public func forgetCategory(_ name: String) throws -> Bool {
    try write { db in
      guard let stored = try AppDatabase.categoryNames(db).known(name) else { return false }
      let used = try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM monthTotal WHERE category = ?1)
              OR EXISTS (SELECT 1 FROM budget WHERE category = ?1)
              OR EXISTS (SELECT 1 FROM rule WHERE category = ?1)
          """,
        arguments: [stored])
      if used == true { throw StoreError.categoryInUse(stored) }
      try db.execute(sql: "DELETE FROM categoryKind WHERE name = ?", arguments: [stored])
      return db.changesCount > 0
    }
  }
}

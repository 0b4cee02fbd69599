import ExpenseCore
import ExpenseStore
import GRDB

/// One category, one name: every write that names a category stores the spelling already
/// known for it (see `CategoryName`), so reads and the rollup compare plain text.
extension AppDatabase {
  /// The stored spellings of every known category: from budgets first (a budget's spelling
  /// wins), then the rollup (every category that has rows), rules and kinds. All small tables:
  /// no expense row is read.
  static func categoryNames(_ db: Database) throws -> CategoryNames {
    CategoryNames(
      spellings: try String.fetchAll(
        db,
        sql: """
          SELECT category FROM budget
          UNION ALL SELECT category FROM monthTotal WHERE category <> ''
          UNION ALL SELECT category FROM rule
          UNION ALL SELECT name FROM categoryKind
          """))
  }

  /// The known categories by identity, to map names typed or read from a file.
  public func categoryNames() throws(StoreError) -> CategoryNames {
    try read { db in try AppDatabase.categoryNames(db) }
  }

  /// For a category name that is no known category, the closest known one (edit distance at
  /// most 2, ignoring case and spaces), for a "did you mean" hint.
  /// The spelling a budget for `name` is stored under. A new category takes `name` tidied; a
  /// known one keeps its spelling if a budget already named it, else takes the budget's
  /// spelling everywhere (the rows, the rollup, rules and kinds are renamed).
  static func budgetSpelling(_ db: Database, _ name: String) throws -> String {
    let decision = try BudgetSpelling.decide(name, known: try categoryNames(db)) { known in
      try Bool.fetchOne(db, sql: "SELECT 1 FROM budget WHERE category = ? LIMIT 1", arguments: [known]) == true
    }
    if case .rename(let old, let new) = decision { try renameCategory(db, from: old, to: new) }
    return decision.spelling
  }

  /// Gives category `old` the spelling `new` everywhere, the rollup through `MonthTotalDeltas`
  /// (each row's sums move from the old name to the new one).
  static func renameCategory(_ db: Database, from old: String, to new: String) throws {
    var totals = MonthTotalDeltas()
    let rows = try Row.fetchCursor(
      db, sql: "SELECT date, amountMinor, currency FROM expense WHERE category = ?", arguments: [old])
    while let row = try rows.next() {
      guard let currency = Currency(code: row["currency"]) else { continue }
      let date = try CivilDate.parseStored(row["date"])
      let amount = Money(minor: row["amountMinor"], currency: currency)
      totals.remove(date: date, amount: amount, category: old)
      try totals.add(date: date, amount: amount, category: new)
    }
    for (table, column) in [
      ("expense", "category"), ("rule", "category"), ("categoryKind", "name"), ("budget", "category"),
    ] {
      try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [new, old])
    }
    try totals.apply(db)
  }
}

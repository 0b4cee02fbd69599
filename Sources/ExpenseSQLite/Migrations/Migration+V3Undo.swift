import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v3-undo": what undo, edit and one-name-per-category need.
  ///
  /// - `expense.categorySource` (see `CategorySource`), so `rules apply` leaves categories set by
  ///   hand or by the bank alone;
  /// - `idRun`: runs of consecutive ids and the day they are stored on, so `delete`, `edit` and
  ///   `imports remove` find rows by the user-facing id without a table scan and without an index
  ///   entry per row (see `IdRuns` for why and what it measured);
  /// - `importRecord`: one row per import that added rows, with the contiguous id range it added
  ///   (one import is one transaction, so its new ids follow each other). Removing an import
  ///   reads the id runs in that range, with no per-row import column;
  /// - categories that differ only by case, spaces or Unicode normalization are merged into one
  ///   spelling everywhere (rows, budgets, kinds, rules, rollup).
  ///
  /// Imports made before this version have no record (their rows' ids were never noted per
  /// import): `imports` does not list them and their rows are removed with `delete`.
  static func migrateToV3Undo(_ db: Database) throws {
    try db.alter(table: "expense") { t in
      t.add(column: "categorySource", .integer).notNull().defaults(to: 0)
    }
    try db.create(table: "idRun") { t in
      t.primaryKey("firstId", .integer)
      t.column("lastId", .integer).notNull()
      t.column("day", .integer).notNull()  // the key's top bits: key >> 43
    }
    try IdRuns.rebuild(db)
    try db.create(table: "importRecord") { t in
      t.primaryKey("id", .integer)
      t.column("file", .text).notNull()
      t.column("importedAt", .text)  // ISO 8601 UTC, NULL when the caller gave no time
      t.column("rows", .integer).notNull()  // rows the import added
      t.column("firstId", .integer).notNull()  // the ids it added: firstId...lastId
      t.column("lastId", .integer).notNull()
      t.column("firstDate", .text).notNull()  // YYYY-MM-DD span of the rows it added
      t.column("lastDate", .text).notNull()
    }
    try mergeCategorySpellings(db)
    try markCategorySources(db)
  }

  /// Rewrites every spelling of a category to one: a budget's spelling if a budget names it,
  /// else the first spelling found in the expenses (lowest id), else a rule's, else a kind's;
  /// tidied (spaces trimmed and made single, NFC).
  ///
  /// Budgets that collide once merged (same currency and month) are ADDED: each budgeted a part
  /// of what is now one category's spending, so the sum keeps the month's total budget what it
  /// was. Kinds that collide keep the winning spelling's kind, else a kind that is not the
  /// default `expense` (someone set it on purpose).
  static func mergeCategorySpellings(_ db: Database) throws {
    var spellings: [String] = []
    spellings += try String.fetchAll(db, sql: "SELECT category FROM budget ORDER BY id")
    spellings += try String.fetchAll(
      db, sql: "SELECT category FROM expense WHERE category IS NOT NULL GROUP BY category ORDER BY MIN(id)")
    spellings += try String.fetchAll(db, sql: "SELECT category FROM rule ORDER BY id")
    spellings += try String.fetchAll(db, sql: "SELECT name FROM categoryKind ORDER BY name")
    var winner: [String: String] = [:]  // key -> stored spelling
    for name in spellings {
      let tidy = CategoryName.tidy(name)
      if !tidy.isEmpty && winner[tidy.lowercased()] == nil { winner[tidy.lowercased()] = tidy }
    }
    // Compared as bytes: Swift's `==` already treats NFC and NFD spellings as equal, SQLite does not.
    var renames: [(old: String, new: String)] = []
    var seen = Set<[UInt8]>()
    for name in spellings where seen.insert(Array(name.utf8)).inserted {
      if let target = winner[CategoryName.key(name)], !target.utf8.elementsEqual(name.utf8) {
        renames.append((name, target))
      }
    }
    guard !renames.isEmpty else { return }

    try db.execute(sql: "CREATE TEMP TABLE categoryRename (old TEXT PRIMARY KEY, new TEXT NOT NULL)")
    for (old, new) in renames {
      try db.execute(sql: "INSERT INTO categoryRename (old, new) VALUES (?, ?)", arguments: [old, new])
    }
    for table in ["expense", "rule"] {
      try db.execute(
        sql: """
          UPDATE \(table) SET category = (SELECT new FROM categoryRename WHERE old = \(table).category)
          WHERE category IN (SELECT old FROM categoryRename)
          """)
    }
    try db.execute(sql: "DROP TABLE categoryRename")

    // Budgets: sum the ones that now share (category, currency, month).
    var budgets: [String: (category: String, currency: String, month: String, minor: Int64)] = [:]
    var order: [String] = []
    for row in try Row.fetchAll(db, sql: "SELECT category, currency, month, amountMinor FROM budget ORDER BY id") {
      let name: String = row["category"]
      let category = winner[CategoryName.key(name)] ?? name
      let slot = "\(CategoryName.key(name))\u{0}\(row["currency"] as String)\u{0}\(row["month"] as String)"
      if budgets[slot] == nil { order.append(slot) }
      // Two budgets merged into one: their sum, held at Int64.max (no stored pair can trap).
      let minor: Int64 = try row.decode(forColumn: "amountMinor")
      var entry = budgets[slot] ?? (category, row["currency"], row["month"], 0)
      let sum = entry.minor.addingReportingOverflow(minor)
      entry.minor = sum.overflow ? (minor < 0 ? .min : .max) : sum.partialValue
      budgets[slot] = entry
    }
    try db.execute(sql: "DELETE FROM budget")
    for slot in order {
      guard let budget = budgets[slot] else { continue }
      try db.execute(
        sql: "INSERT INTO budget (category, currency, month, amountMinor) VALUES (?, ?, ?, ?)",
        arguments: [budget.category, budget.currency, budget.month, budget.minor])
    }

    // Kinds: one per category; the winner's own, else one set on purpose.
    var kinds: [String: (name: String, kind: String)] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT name, kind FROM categoryKind ORDER BY name") {
      let name: String = row["name"]
      let kind: String = row["kind"]
      let key = CategoryName.key(name)
      let target = winner[key] ?? name
      if let chosen = kinds[key] {
        if chosen.name == target { continue }
        if name == target || (chosen.kind == "expense" && kind != "expense") { kinds[key] = (name, kind) }
      } else {
        kinds[key] = (name, kind)
      }
    }
    try db.execute(sql: "DELETE FROM categoryKind")
    for (key, entry) in kinds {
      try db.execute(
        sql: "INSERT INTO categoryKind (name, kind) VALUES (?, ?)", arguments: [winner[key] ?? entry.name, entry.kind])
    }
    try AppDatabase.rebuildAllMonthTotals(db)
  }

  /// Guesses where existing rows' categories came from: typed by hand for rows added by hand;
  /// for imported rows, a rule when a current rule gives exactly that category (so `rules
  /// apply` may still re-sort them), else the file.
  static func markCategorySources(_ db: Database) throws {
    try db.execute(
      sql: "UPDATE expense SET categorySource = ? WHERE category IS NOT NULL AND fileId IS NULL",
      arguments: [CategorySource.hand.rawValue])
    try db.execute(
      sql: "UPDATE expense SET categorySource = ? WHERE category IS NOT NULL AND fileId IS NOT NULL",
      arguments: [CategorySource.file.rawValue])
    let rules = try Row.fetchAll(db, sql: "SELECT id, pattern, category, field FROM rule").map {
      CategoryRule(
        id: $0["id"], pattern: $0["pattern"], category: $0["category"],
        field: CategoryRule.Field(rawValue: $0["field"]) ?? .description)
    }
    guard !rules.isEmpty else { return }
    let matcher = RuleMatcher(rules: rules)
    let rows = try Row.fetchCursor(
      db, sql: "SELECT key, description, account, category FROM expense WHERE categorySource = ?",
      arguments: [CategorySource.file.rawValue])
    var byRule: [Int64] = []
    while let row = try rows.next() {
      let category: String = row["category"]
      if let rule = matcher.match(description: row["description"], account: row["account"]),
        rule.category == category
      {
        byRule.append(row["key"])
      }
    }
    let update = try db.makeStatement(sql: "UPDATE expense SET categorySource = ? WHERE key = ?")
    for key in byRule { try update.execute(arguments: [CategorySource.rule.rawValue, key]) }
  }
}

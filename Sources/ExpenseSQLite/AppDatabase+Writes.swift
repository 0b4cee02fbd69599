import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// The next user-facing expense id (ids are small sequential numbers; the table's own key
  /// is the day-first fingerprint).
  static func nextExpenseID(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'expense'") ?? 1
  }

  /// The id the next import record gets: past every id an import record ever had. `importRecord`
  /// is a plain rowid table, whose next id is the largest present plus one, so removing the
  /// newest import would hand its id (which a user was told in "Undo with: expenses imports
  /// remove N", and an Idempotency-Key replay repeats) to the next import. The `import` counter
  /// remembers the high-water mark; a database from before the counter starts from its records.
  static func nextImportID(_ db: Database) throws -> Int64 {
    let counted = try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'import'") ?? 1
    let present = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM importRecord") ?? 1
    return max(counted, present)
  }

  /// Raises the `import` counter to `next` (never lowers it).
  static func saveNextImportID(_ db: Database, _ next: Int64) throws {
    try db.execute(
      sql: """
        INSERT INTO counter (name, value) VALUES ('import', ?)
        ON CONFLICT (name) DO UPDATE SET value = MAX(value, excluded.value)
        """,
      arguments: [next])
  }

  static func saveNextExpenseID(_ db: Database, _ next: Int64) throws {
    try db.execute(
      sql:
        "INSERT INTO counter (name, value) VALUES ('expense', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      arguments: [next])
  }

  /// The `monthTotal` rollup computed from the rows, in the table's column order: what
  /// `rebuildAllMonthTotals` stores and what `check` compares the stored rollup with.
  static let monthTotalAggregateSQL = """
    SELECT substr(date, 1, 7), currency, COALESCE(category, ''),
           SUM(CASE WHEN amountMinor < 0 THEN -amountMinor ELSE 0 END),
           SUM(CASE WHEN amountMinor > 0 THEN amountMinor ELSE 0 END), COUNT(*),
           SUM(amountMinor > 0), dailyOutflow(CAST(substr(date, 9, 2) AS INTEGER), amountMinor)
    FROM expense GROUP BY 1, 2, 3
    """

  /// Recomputes every month (after rules change categories across the history).
  static func rebuildAllMonthTotals(_ db: Database) throws {
    try db.execute(sql: "DELETE FROM monthTotal")
    try db.execute(
      sql: "INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount, daily) "
        + monthTotalAggregateSQL)
  }

  /// Adds one expense typed by hand and returns it with its id.
  ///
  /// Typing the same coffee twice means two coffees, so a hand-added row is never a duplicate:
  /// it gets a free key on its day instead of a fingerprint.
  /// A date outside `CivilDate.supportedRange` is refused: its key would not hold its day.
  @discardableResult
  public func addExpense(_ expense: Expense) throws -> Expense {
    guard expense.date.isSupported else { throw CoreError.dateOutOfRange(expense.date.description) }
    return try write { db in
      var names = try AppDatabase.categoryNames(db)
      var expense = expense
      expense.category = names.canonical(expense.category)
      let id = try AppDatabase.nextExpenseID(db)
      let key = try ImportSession.freeKey(db, on: expense.date, seed: id)
      var fileID: Int64?
      if let file = expense.source?.file {
        try db.execute(sql: "INSERT OR IGNORE INTO importFile (name) VALUES (?)", arguments: [file])
        fileID = try Int64.fetchOne(db, sql: "SELECT id FROM importFile WHERE name = ?", arguments: [file])
      }
      let source: CategorySource = expense.category == nil ? .none : fileID == nil ? .hand : .file
      try db.execute(
        sql: """
          INSERT INTO expense
            (key, id, date, amountMinor, currency, description, category, account, fileId, sourceLine,
             categorySource)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          key, id, expense.date.description, expense.amount.minor, expense.amount.currency.code, expense.description,
          expense.category, expense.account, fileID, expense.source?.line,
          source.rawValue,
        ])
      try AppDatabase.saveNextExpenseID(db, id + 1)
      var runs = try IdRuns(db)
      try runs.add(id: id, day: ExpenseKey(rawValue: key).day)
      try runs.flush()
      var totals = MonthTotalDeltas()
      try totals.add(date: expense.date, amount: expense.amount, category: expense.category)
      try totals.apply(db)
      var stored = expense
      stored.id = id
      stored.categorySource = source  // as `expense(id:)` reads it back
      return stored
    }
  }

  /// Sets a budget: the default for every month, or an override for `budget.month`. The name is
  /// matched to a known category (case, spaces and normalization aside); the first budget of a
  /// category gives it its spelling everywhere (a budget's spelling wins).
  /// A month outside `Month.supportedRange` is refused (reports would never read it).
  public func saveBudget(_ budget: Budget) throws {
    try budget.checkSavable()
    try write { db in
      var budget = budget
      budget.category = try AppDatabase.budgetSpelling(db, budget.category)
      try db.execute(
        sql: """
          INSERT INTO budget (category, currency, month, amountMinor) VALUES (?, ?, ?, ?)
          ON CONFLICT (category, currency, month) DO UPDATE SET amountMinor = excluded.amountMinor
          """,
        arguments: [budget.category, budget.amount.currency.code, budget.month?.description ?? "", budget.amount.minor])
    }
  }

  /// Removes the budget of `category` for `month` (nil: the default); in every currency unless
  /// one is given. Throws `budgetNotFound` when nothing matched.
  public func removeBudget(category: String, month: Month?, currency: Currency?) throws {
    try write { db in
      let stored = try AppDatabase.categoryNames(db).known(category) ?? category
      // An older version wrote a year under 1000 without its leading zeros (`999-05`): both
      // spellings name the month, so such a budget can still be removed.
      let padded = month?.description ?? ""
      let legacy = month.map { "\($0.year)-\($0.description.suffix(2))" } ?? ""
      var sql = "DELETE FROM budget WHERE category = ? AND month IN (?, ?)"
      var arguments: StatementArguments = [stored, padded, legacy]
      if let currency {
        sql += " AND currency = ?"
        arguments += [currency.code]
      }
      try db.execute(sql: sql, arguments: arguments)
      if db.changesCount == 0 { throw StoreError.budgetNotFound(category: category, month: month) }
    }
  }

  /// Marks a category as spending, income or a transfer.
  public func setCategoryKind(_ name: String, kind: CategoryKind) throws {
    try write { db in
      var names = try AppDatabase.categoryNames(db)
      try db.execute(
        sql:
          "INSERT INTO categoryKind (name, kind) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET kind = excluded.kind",
        arguments: [names.canonical(name) ?? name, kind.rawValue])
    }
  }

  public func removeCategoryKind(_ name: String) throws {
    try write { db in try db.execute(sql: "DELETE FROM categoryKind WHERE name = ?", arguments: [name]) }
  }

  public func removeSetting(_ key: String) throws {
    try write { db in try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key]) }
  }

  /// Stores a setting (`currency`, `accordion`, ...).
  public func setSetting(_ key: String, _ value: String) throws {
    try write { db in
      try db.execute(
        sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        arguments: [key, value])
    }
  }

  /// Saves expanded/collapsed states per section id, in one transaction.
  public func saveSectionStates(_ states: [String: Bool]) throws {
    try write { db in
      for (id, expanded) in states {
        try db.execute(
          sql: """
            INSERT INTO sectionPreference (sectionId, expanded) VALUES (?, ?)
            ON CONFLICT (sectionId) DO UPDATE SET expanded = excluded.expanded
            """,
          arguments: [id, expanded])
      }
    }
  }

  /// Forgets every saved section state (back to the defaults); accordion mode is kept.
  public func removeSectionStates(_ keys: [String]) throws {
    try write { db in
      for key in keys { try db.execute(sql: "DELETE FROM sectionPreference WHERE sectionId = ?", arguments: [key]) }
    }
  }

  /// Adds a categorization rule and returns it with its id.
  @discardableResult
  public func addRule(pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try write { db in
      var names = try AppDatabase.categoryNames(db)
      let category = names.canonical(category) ?? category
      try db.execute(
        sql: "INSERT INTO rule (pattern, category, field) VALUES (?, ?, ?)",
        arguments: [pattern, category, field.rawValue])
      return CategoryRule(id: db.lastInsertedRowID, pattern: pattern, category: category, field: field)
    }
  }

  /// Removes a rule by id.
  public func removeRule(id: Int64) throws {
    try write { db in
      try db.execute(sql: "DELETE FROM rule WHERE id = ?", arguments: [id])
      if db.changesCount == 0 { throw StoreError.ruleNotFound(id) }
    }
  }

  /// Saves (or replaces) a named import profile, stored as JSON text.
  public func saveProfile(name: String, json: String) throws {
    try write { db in try AppDatabase.saveProfile(db, name: name, json: json) }
  }

  static func saveProfile(_ db: Database, name: String, json: String) throws {
    try db.execute(
      sql:
        "INSERT INTO importProfile (name, options) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET options = excluded.options",
      arguments: [name, json])
  }
}

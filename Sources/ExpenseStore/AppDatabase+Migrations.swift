import ExpenseCore
import GRDB

extension AppDatabase {
  /// The versioned schema. Each migration runs once, in order, inside a transaction; a database
  /// that has migrations this build does not know was written by a newer version and is refused
  /// rather than half-understood.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "expense") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("date", .text).notNull()  // YYYY-MM-DD: sorts and range-scans as text
        t.column("amountMinor", .integer).notNull()  // signed minor units, negative = out
        t.column("currency", .text).notNull()
        t.column("description", .text).notNull()
        t.column("category", .text)
        t.column("account", .text)
        // Untyped (BLOB affinity): imported rows store an integer key (day and hash, see
        // `ExpenseKey`), hand-added rows a `manual:` text; neither is converted.
        t.column("fingerprint").notNull()
        t.column("sourceFile", .text)
        t.column("sourceLine", .integer)
      }
      // Created after the table but before any row: the import relies on it to drop duplicates.
      try db.create(index: "expense_fingerprint", on: "expense", columns: ["fingerprint"], unique: true)
      // Covering index for the monthly aggregate: a report reads only this index's range.
      try db.create(
        index: "expense_month_aggregate", on: "expense",
        columns: ["date", "currency", "category", "amountMinor"])
      // Monthly totals per (currency, category), rebuilt for the months an import or an edit
      // touches: a report reads a few dozen rows here whatever the size of the history.
      try db.create(table: "monthTotal", options: .withoutRowID) { t in
        t.column("month", .text).notNull()  // YYYY-MM
        t.column("currency", .text).notNull()
        t.column("category", .text).notNull()  // "" = uncategorized
        t.column("outflow", .integer).notNull()
        t.column("inflow", .integer).notNull()
        t.column("count", .integer).notNull()
        t.primaryKey(["month", "currency", "category"])
      }
      try db.create(table: "budget") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("category", .text).notNull()
        t.column("currency", .text).notNull()
        t.column("month", .text).notNull().defaults(to: "")  // "" = default for every month
        t.column("amountMinor", .integer).notNull().check { $0 >= 0 }
        t.uniqueKey(["category", "currency", "month"])
      }
      try db.create(table: "categoryKind") { t in
        t.primaryKey("name", .text)
        t.column("kind", .text).notNull().check { ["expense", "income"].contains($0) }
      }
      try db.create(table: "rule") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("pattern", .text).notNull()
        t.column("category", .text).notNull()
        t.column("field", .text).notNull().defaults(to: "description")
          .check { ["description", "account"].contains($0) }
      }
      try db.create(table: "sectionPreference") { t in
        t.primaryKey("sectionId", .text)
        t.column("expanded", .boolean).notNull()
      }
      try db.create(table: "setting") { t in
        t.primaryKey("key", .text)
        t.column("value", .text).notNull()
      }
      try db.create(table: "importProfile") { t in
        t.primaryKey("name", .text)
        t.column("options", .text).notNull()  // JSON of ImportOptions
      }
    }
    migrator.registerMigration("v2", migrate: AppDatabase.migrateToV2)
    migrator.registerMigration("v3-kinds", migrate: AppDatabase.migrateKinds)
    migrator.registerMigration("v3-undo", migrate: AppDatabase.migrateToV3Undo)
    migrator.registerMigration("v4-tokens", migrate: AppDatabase.migrateTokens)
    return migrator
  }

  /// v2 keys each expense by its day-first fingerprint (`ExpenseKey`) as the table's
  /// INTEGER PRIMARY KEY, and drops both secondary indexes of v1.
  ///
  /// Why: in v1 every imported row was written three times (the table, a unique fingerprint
  /// index, a covering date index), which made a bulk import several times the work of SQLite's
  /// own `.import`. With the key as the rowid, the table itself is the duplicate check and is
  /// clustered by date (a month is one key range); reports read the `monthTotal` rollup; and the
  /// file name moves to `importFile` (one small integer per row instead of the name). The
  /// user-facing `id` stays a small sequential number, assigned from `counter`, without an index:
  /// nothing looks an expense up by id on a hot path.
  static func migrateToV2(_ db: Database) throws {
    try db.create(table: "importFile") { t in
      t.primaryKey("id", .integer)
      t.column("name", .text).notNull().unique()
    }
    try db.create(table: "counter", options: .withoutRowID) { t in
      t.primaryKey("name", .text)
      t.column("value", .integer).notNull()
    }
    try db.create(table: "expense2") { t in
      t.primaryKey("key", .integer)  // day << 43 | 43 bits of the fingerprint hash
      t.column("id", .integer).notNull()
      t.column("date", .text).notNull()  // YYYY-MM-DD
      t.column("amountMinor", .integer).notNull()  // signed minor units, negative = out
      t.column("currency", .text).notNull()
      t.column("description", .text).notNull()
      t.column("category", .text)
      t.column("account", .text)
      t.column("fileId", .integer)  // importFile.id; NULL for rows added by hand
      t.column("sourceLine", .integer)
    }
    try db.execute(
      sql: "INSERT INTO importFile (name) SELECT DISTINCT sourceFile FROM expense WHERE sourceFile IS NOT NULL")
    // v1 imported rows already carry the integer key; hand-added rows (text fingerprints) get
    // their day in the high bits and a free slot below.
    let rows = try Row.fetchCursor(db, sql: "SELECT * FROM expense ORDER BY id")
    let insert = try db.makeStatement(
      sql: """
        INSERT INTO expense2 (key, id, date, amountMinor, currency, description, category, account, fileId, sourceLine)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM importFile WHERE name = ?), ?)
        """)
    while let row = try rows.next() {
      let date: String = row["date"]
      let imported = row["fingerprint"] as? Int64
      let key =
        try imported
        ?? ImportSession.freeKey(
          db, on: try CivilDate.parseStored(date), seed: row["id"], table: "expense2")
      try insert.execute(arguments: [
        key, row["id"], date, row["amountMinor"], row["currency"], row["description"], row["category"],
        row["account"], row["sourceFile"], row["sourceLine"],
      ])
    }
    try db.execute(sql: "INSERT INTO counter (name, value) SELECT 'expense', COALESCE(MAX(id), 0) + 1 FROM expense")
    try db.drop(table: "expense")
    try db.rename(table: "expense2", to: "expense")
  }

  /// v3-kinds: a category kind may be `transfer`; the monthly rollup also counts money-in rows
  /// (`inflowCount`, for "unsorted money in · N rows") and keeps money out per day (`daily`,
  /// see `DailyOutflow`) for shaped pace. Both are filled from the stored rows.
  static func migrateKinds(_ db: Database) throws {
    try db.create(table: "categoryKind_v3") { t in
      t.primaryKey("name", .text)
      t.column("kind", .text).notNull().check { ["expense", "income", "transfer"].contains($0) }
    }
    try db.execute(sql: "INSERT INTO categoryKind_v3 (name, kind) SELECT name, kind FROM categoryKind")
    try db.drop(table: "categoryKind")
    try db.rename(table: "categoryKind_v3", to: "categoryKind")
    try db.alter(table: "monthTotal") { t in
      t.add(column: "inflowCount", .integer).notNull().defaults(to: 0)
      t.add(column: "daily", .blob)
    }
    try rebuildAllMonthTotals(db)
  }

  /// Runs the pending migrations under the write lock, after copying the file beside itself
  /// (`backup`: the database holds data) so a failed or unwanted upgrade can be undone by hand.
  func migrate(backup: Bool) throws(StoreError) {
    let migrator = AppDatabase.migrator
    do {
      if backup { try backupBeforeMigration() }
      try writer.write { db in
        // Checked again under the lock: another process may have migrated meanwhile.
        if try db.tableExists("grdb_migrations") && migrator.hasBeenSuperseded(db) {
          throw StoreError.newerSchema(
            path: path, found: AppDatabase.schemaVersion + 1, supported: AppDatabase.schemaVersion)
        }
      }
      try migrator.migrate(writer)
      try writer.write { db in
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version < AppDatabase.schemaVersion {
          try db.execute(sql: "PRAGMA user_version = \(AppDatabase.schemaVersion)")
        }
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }
}

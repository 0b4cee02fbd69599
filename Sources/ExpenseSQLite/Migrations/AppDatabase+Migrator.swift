import ExpenseCore
import ExpenseStore
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
    migrator.registerMigration("v5-splits", migrate: AppDatabase.migrateSplits)
    migrator.registerMigration("v6-narrow", migrate: AppDatabase.migrateToV6Narrow)
    migrator.registerMigration("v7-users", migrate: AppDatabase.migrateUsers)
    migrator.registerMigration("v8-dated", migrate: AppDatabase.migrateDated)
    migrator.registerMigration("v9-transfer-pairs", migrate: AppDatabase.migrateTransferPairs)
    migrator.registerMigration("v10-records", migrate: AppDatabase.migrateRecords)
    migrator.registerMigration("v11-inline-texts", migrate: AppDatabase.migrateInlineTexts)
    return migrator
  }

  /// Runs the pending migrations under the write lock, after copying the file beside itself
  /// (`backup`: the database holds data) so a failed or unwanted upgrade can be undone by hand.
  func migrate(backup: Bool) throws(StoreError) {
    let migrator = AppDatabase.migrator
    do {
      if backup { try backupBeforeMigration() }
      // A new database gets its page size before its first table (it cannot change later
      // without a rebuild); an existing one is rebuilt after the migrations (`rebuildPages`).
      // (Not WAL before the tables, though it would spare each migration's sync: the schema
      // would then live in the `-wal` until a checkpoint, and a file whose header does not yet
      // carry the application id is inspected without its `-wal` (`openImmutable`), so it
      // would look empty, another program's, to a second process meanwhile.)
      // A new database's schema is written without a sync per migration (about 25 of them,
      // three syncs each: 20–30 ms before a first import could start). Each migration is
      // still one transaction with its rollback journal, so a process that dies midway leaves
      // a file the next open migrates on from where it stopped; only an operating system crash
      // in that moment could leave the new file damaged, and it holds no data yet. The next
      // write with `synchronous = NORMAL` (the claim that follows, in this journal mode) syncs
      // the file, and with it the whole schema.
      let fresh = try writer.writeWithoutTransaction { db in
        guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 else { return false }
        try db.execute(sql: "PRAGMA page_size = \(AppDatabase.pageSize)")
        try db.execute(sql: "PRAGMA synchronous = OFF")
        return true
      }
      defer {
        if fresh { try? writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") } }
      }
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
      if backup { try rebuildPages() }
    } catch let error as StoreError {
      throw error
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }
}

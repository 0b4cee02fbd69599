import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
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
}

import ExpenseCore
import Foundation
import GRDB
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// The v6 format (narrow rows, dictionaries, 16 KiB pages): a v5 database migrates with every
/// stored value unchanged, a copy first and a clean `check` after; writes through the `expense`
/// view keep values byte for byte; a rebuild killed half-way leaves a usable file.
@Suite final class V6MigrationTests {
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  func temporaryPath() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-v6-\(UUID().uuidString)")
    folders.append(folder.path)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("db.sqlite").path
  }

  func usd(_ minor: Int64) -> Money { Money(minor: minor, currency: .usd) }

  /// Every value of every expense, with its SQLite type, in key order: what every list, report
  /// and export reads (they all read the `expense` columns).
  static let dumpSQL = """
    SELECT key, typeof(id), id, typeof(date), quote(date), typeof(amountMinor), quote(amountMinor), quote(currency),
           typeof(description), quote(description), quote(category), quote(account), fileId, sourceLine,
           categorySource
    FROM expense ORDER BY key
    """

  static func dump(_ path: String) throws -> [[String]] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      try Row.fetchAll(db, sql: dumpSQL).map { row in
        (0..<row.count).map { (row[$0] as DatabaseValue).description }
      }
    }
  }

  /// A database with every kind of row: imported (two files, one a QIF-like split), by hand,
  /// edited (amount, and a new date), categorised by a rule, deleted, a category in NFC and NFD.
  func populate(_ db: AppDatabase) throws {
    let day = try CivilDate.parse("2026-10-02")
    _ = try db.addRule(pattern: "market", category: "Groceries", field: .description)
    try db.importRows(sourceFile: "bank.csv") { feeder in
      for i in 0..<600 {
        try feeder.insert(
          date: day.adding(days: i % 40 - 20), amount: usd(Int64(-100 - i)),
          description: ["Market \(i % 7)", "Café", "Cafe\u{301}", "Bus"][i % 4],
          category: i % 5 == 0 ? nil : ["Food", "Caf\u{E9}", "Cafe\u{301}", "Travel"][i % 4], account: nil,
          fingerprintHash: UInt64(i) &* 0x9E37_79B9, line: i + 2)
      }
    }
    try db.importRows(sourceFile: "split.qif") { feeder in
      for part in 0..<3 {
        try feeder.insert(
          date: day, amount: usd(Int64(-1000 - part)), description: "Superstore", category: "Part \(part)",
          account: "Checking", fingerprintHash: 0xABCD_0000 + UInt64(part), line: 10 + part, splitGroup: 1)
      }
    }
    let hand = try db.addExpense(Expense(date: day, amount: usd(-250), description: "Coffee by hand", category: "Food"))
    _ = try db.addExpense(
      Expense(date: day, amount: Money(minor: 1200, currency: Currency(code: "EUR")!), description: "Refund €"))
    if let id = hand.id {
      _ = try db.editExpense(id: id, ExpenseEdit(date: day.adding(days: 3), amountMinor: -275))
    }
    _ = try db.editExpense(id: 5, ExpenseEdit(description: "Edited text", category: "Travel"))
    _ = try db.applyRules()
    _ = try db.deleteExpenses(ids: [7])
  }

  /// Turns a v6 database back into the v5 schema it was made from (the same table, columns
  /// and trigger as v5 created), keeping every value: the oracle is v5's own layout.
  static func downgradeToV5(_ path: String) throws {
    try FutureSchema.execute(
      path: path,
      """
      PRAGMA journal_mode = DELETE;
      PRAGMA page_size = 4096;
      BEGIN;
      CREATE TABLE expense5 ("key" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, "date" TEXT NOT NULL,
        "amountMinor" INTEGER NOT NULL, "currency" TEXT NOT NULL, "description" TEXT NOT NULL, "category" TEXT,
        "account" TEXT, "fileId" INTEGER, "sourceLine" INTEGER, "categorySource" INTEGER NOT NULL DEFAULT 0);
      INSERT INTO expense5 SELECT * FROM expense;
      DROP VIEW expense;
      DROP TABLE expenseRow;
      DROP TABLE currencyCode;
      DROP TABLE descriptionText;
      DROP TABLE categoryName;
      ALTER TABLE expense5 RENAME TO expense;
      CREATE TRIGGER revision_expense_update
      AFTER UPDATE OF date, amountMinor, currency, description, category, account ON expense
      BEGIN UPDATE revision SET value = value + 1 WHERE id = 1; END;
      DELETE FROM grdb_migrations WHERE identifier = 'v6-narrow';
      PRAGMA user_version = 5;
      COMMIT;
      VACUUM;
      PRAGMA journal_mode = WAL;
      """)
  }

  @Test func aVersion5DatabaseMigratesWithEveryValueUnchanged() throws {
    let path = try temporaryPath()
    let original = try AppDatabase(path: path)
    try populate(original)
    let list = try original.expenses()
    let totals = try original.monthlyTotals(
      from: try CivilDate.parse("2026-09-01").calendarMonth, through: try CivilDate.parse("2026-11-01").calendarMonth)
    try original.writer.close()
    try V6MigrationTests.downgradeToV5(path)
    // Values only an older version or a hand edit leave: a date that is not the key's day,
    // a date that does not exist, a BLOB description, a REAL amount, invalid UTF-8.
    try FutureSchema.execute(
      path: path,
      """
      CREATE TABLE saved AS SELECT id, date, amountMinor, description FROM expense WHERE id IN (3, 4, 6, 8, 9);
      UPDATE expense SET date = '2026-09-30' WHERE id = 3;
      UPDATE expense SET date = '2026-02-30' WHERE id = 4;
      UPDATE expense SET description = CAST('as a blob' AS BLOB) WHERE id = 6;
      UPDATE expense SET amountMinor = 12.5 WHERE id = 8;
      UPDATE expense SET description = CAST(X'41FF42' AS TEXT) WHERE id = 9;
      """)
    let before = try V6MigrationTests.dump(path)
    #expect(before.count == list.count)

    let migrated = try AppDatabase(path: path)
    let backup = "\(path).before-v\(AppDatabase.schemaVersion)"
    #expect(FileManager.default.fileExists(atPath: backup), "a copy first")
    #expect(try V6MigrationTests.dump(backup) == before, "the copy is the v5 file")
    #expect(try V6MigrationTests.dump(path) == before, "every value, type and key unchanged")
    let (pageSize, journal, version) = try migrated.read { db in
      (
        try Int.fetchOne(db, sql: "PRAGMA page_size"), try String.fetchOne(db, sql: "PRAGMA journal_mode"),
        try Int.fetchOne(db, sql: "PRAGMA user_version")
      )
    }
    #expect(pageSize == AppDatabase.pageSize && journal == "wal" && version == AppDatabase.schemaVersion)
    // Put back through the view (its UPDATE trigger), the values make a clean check.
    try FutureSchema.execute(
      path: path,
      """
      UPDATE expense SET date = (SELECT date FROM saved WHERE saved.id = expense.id),
        amountMinor = (SELECT amountMinor FROM saved WHERE saved.id = expense.id),
        description = (SELECT description FROM saved WHERE saved.id = expense.id)
      WHERE id IN (SELECT id FROM saved);
      DROP TABLE saved;
      """)
    let reopened = try AppDatabase(path: path)
    let report = try reopened.check()
    #expect(report.isHealthy, "check is clean: \(report.problems)")
    let after = try reopened.monthlyTotals(
      from: try CivilDate.parse("2026-09-01").calendarMonth, through: try CivilDate.parse("2026-11-01").calendarMonth)
    #expect(after == totals, "the rollup reads the same")
    #expect(try reopened.expenses() == list, "every expense reads the same")
  }

  @Test func aNewDatabaseIsVersion6WithLargePagesAndNarrowRows() throws {
    let path = try temporaryPath()
    let db = try AppDatabase(path: path)
    try populate(db)
    let pageSize = try db.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
    #expect(pageSize == AppDatabase.pageSize)
    let stored = try db.read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) AS n, SUM(date IS NULL) AS keyDays, (SELECT COUNT(*) FROM descriptionText) AS texts,
                 (SELECT COUNT(*) FROM categoryName) AS categories
          FROM expenseRow
          """)
    }
    let rows: Int = stored?["n"] ?? 0
    #expect(rows > 500)
    #expect(stored?["keyDays"] == rows, "every date the program writes is its key's day: no byte")
    // NFC and NFD spellings stay two texts (the dictionary compares bytes, as SQLite does).
    let cafes = try db.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM descriptionText WHERE text IN ('Café', 'Cafe\u{301}')")
    }
    #expect(cafes == 2)
    let listed = Set(try db.expenses().map { Array($0.description.utf8) })
    #expect(listed.contains(Array("Cafe\u{301}".utf8)) && listed.contains(Array("Café".utf8)))
  }

  @Test func writesThroughTheViewKeepValuesAsGiven() throws {
    let path = try temporaryPath()
    let db = try AppDatabase(path: path)
    try populate(db)
    try FutureSchema.execute(
      path: path,
      """
      UPDATE expense SET description = CAST('raw' AS BLOB), date = ' 2026-10-02' WHERE id = 1;
      UPDATE expense SET currency = 'eur', category = NULL WHERE id = 2;
      """)
    let row = try db.read { db in
      try Row.fetchOne(
        db,
        sql: "SELECT typeof(description) AS t, date, currency, category FROM expense WHERE id = 1 OR id = 2 ORDER BY id"
      )
    }
    #expect(row?["t"] == "blob")
    #expect(row?["date"] == " 2026-10-02")
    let second = try db.read { db in
      try Row.fetchOne(db, sql: "SELECT currency, category FROM expense WHERE id = 2")
    }
    #expect(second?["currency"] == "eur")
    #expect((second?["category"] as String?) == nil)
  }

  /// A rebuild killed half-way leaves SQLite's rollback journal: the next open (even a read)
  /// rolls it back and finds every row.
  @Test func aRebuildKilledHalfWayLeavesAUsableFile() throws {
    let path = try temporaryPath()
    let db = try AppDatabase(path: path)
    try populate(db)
    let before = try V6MigrationTests.dump(path)
    try db.writer.close()
    // Python's sqlite3 stands in for a process killed in its VACUUM: pages rewritten in the
    // file, the journal holding the old ones, no commit, the process gone (os._exit).
    let script = """
      import os, sqlite3, sys
      c = sqlite3.connect(sys.argv[1], isolation_level=None)
      c.execute('PRAGMA journal_mode = DELETE')
      c.execute('PRAGMA cache_size = 1')
      c.execute('BEGIN')
      c.execute("UPDATE expenseRow SET amountMinor = 0, date = 'gone'")
      os._exit(0)
      """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", script, path]
    try python.run()
    python.waitUntilExit()
    #expect(python.terminationStatus == 0)
    #expect(FileManager.default.fileExists(atPath: path + "-journal"), "a hot journal is left")
    let reader = try AppDatabase(path: path, access: .read)
    #expect(try reader.expenses().count == before.count)
    #expect(try V6MigrationTests.dump(path) == before)
  }
}

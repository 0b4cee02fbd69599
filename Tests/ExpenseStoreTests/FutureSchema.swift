import ExpenseSQLite
import ExpenseStore
import GRDBSQLite

/// Test helper: makes a database look as if a newer expenses had migrated it.
enum FutureSchema {
  static func mark(path: String) throws {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_close(db) }
    let future = AppDatabase.schemaVersion + 1
    let sql = "INSERT INTO grdb_migrations (identifier) VALUES ('future'); PRAGMA user_version = \(future);"
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure() }
  }

  /// Writes a database as version 1 of expenses left it: an imported row (integer fingerprint
  /// key) and a hand-added one (`manual:` text), to check the v2 migration keeps both.
  static func writeVersion1(path: String) throws {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_close(db) }
    let sql = """
      CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
      INSERT INTO grdb_migrations VALUES ('v1');
      CREATE TABLE expense (id INTEGER PRIMARY KEY AUTOINCREMENT, date TEXT NOT NULL, amountMinor INTEGER NOT NULL,
        currency TEXT NOT NULL, description TEXT NOT NULL, category TEXT, account TEXT, fingerprint NOT NULL,
        sourceFile TEXT, sourceLine INTEGER);
      CREATE UNIQUE INDEX expense_fingerprint ON expense(fingerprint);
      CREATE INDEX expense_month_aggregate ON expense(date, currency, category, amountMinor);
      CREATE TABLE monthTotal (month TEXT NOT NULL, currency TEXT NOT NULL, category TEXT NOT NULL,
        outflow INTEGER NOT NULL, inflow INTEGER NOT NULL, count INTEGER NOT NULL,
        PRIMARY KEY (month, currency, category)) WITHOUT ROWID;
      CREATE TABLE budget (id INTEGER PRIMARY KEY AUTOINCREMENT, category TEXT NOT NULL, currency TEXT NOT NULL,
        month TEXT NOT NULL DEFAULT '', amountMinor INTEGER NOT NULL CHECK (amountMinor >= 0),
        UNIQUE (category, currency, month));
      CREATE TABLE categoryKind (name TEXT PRIMARY KEY, kind TEXT NOT NULL);
      CREATE TABLE rule (id INTEGER PRIMARY KEY AUTOINCREMENT, pattern TEXT NOT NULL, category TEXT NOT NULL,
        field TEXT NOT NULL DEFAULT 'description');
      CREATE TABLE sectionPreference (sectionId TEXT PRIMARY KEY, expanded BOOLEAN NOT NULL);
      CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE importProfile (name TEXT PRIMARY KEY, options TEXT NOT NULL);
      INSERT INTO expense VALUES (1, '2026-10-01', -1250, 'USD', 'Coffee', 'Food', NULL, 4794002638498705465, 'bank.csv', 2);
      INSERT INTO expense VALUES (2, '2026-10-01', -300, 'USD', 'Bus', NULL, NULL, 'manual:2026-10-01|USD|-300||Bus|1', NULL, NULL);
      INSERT INTO monthTotal VALUES ('2026-10', 'USD', 'Food', 1250, 0, 1), ('2026-10', 'USD', '', 300, 0, 1);
      PRAGMA user_version = 1;
      """
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure() }
  }

  /// Runs raw SQL on a database file, outside any migration (to shape an old database).
  static func execute(path: String, _ sql: String) throws {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_close(db) }
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure() }
  }

  struct Failure: Error {}
}

import GRDBSQLite

/// Test helper: makes a database look as if a newer expenses had migrated it.
enum FutureSchema {
  static func mark(path: String) throws {
    var db: OpaquePointer?
    guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_close(db) }
    let sql = "INSERT INTO grdb_migrations (identifier) VALUES ('v2'); PRAGMA user_version = 2;"
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure() }
  }
  struct Failure: Error {}
}

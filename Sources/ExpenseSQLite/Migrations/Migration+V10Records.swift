import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v10-records": the service's small records (`StoredRecord`: budget moves, goals),
  /// by kind and id, and each kind's next id, so an id once given is never given again (a
  /// removed record's included). Every change raises the revision, as for the other tables
  /// the API serves.
  static func migrateRecords(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE record (
          kind TEXT NOT NULL,
          id INTEGER NOT NULL,
          body TEXT NOT NULL,
          PRIMARY KEY (kind, id)) WITHOUT ROWID;
        CREATE TABLE recordCounter (
          kind TEXT NOT NULL PRIMARY KEY,
          next INTEGER NOT NULL) WITHOUT ROWID;
        """)
    for event in ["INSERT", "UPDATE", "DELETE"] {
      try db.execute(
        sql: """
          CREATE TRIGGER revision_record_\(event.lowercased()) AFTER \(event) ON record
          BEGIN UPDATE revision SET value = value + 1 WHERE id = 1; END
          """)
    }
  }
}

import ExpenseStore
import GRDB

/// The service's records (`LedgerStore.records`): stored and handed back, never read.
extension AppDatabase {
  public func records(kind: String) throws -> [StoredRecord] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT id, body FROM record WHERE kind = ? ORDER BY id", arguments: [kind]).map {
        StoredRecord(kind: kind, id: $0["id"], body: $0["body"])
      }
    }
  }

  public func record(kind: String, id: Int64) throws -> StoredRecord? {
    try read { db in
      try String.fetchOne(db, sql: "SELECT body FROM record WHERE kind = ? AND id = ?", arguments: [kind, id]).map {
        StoredRecord(kind: kind, id: id, body: $0)
      }
    }
  }

  public func addRecord(kind: String, body: String) throws -> StoredRecord {
    try write { db in try AppDatabase.addRecord(db, kind: kind, body: body) }
  }

  /// Adds a record in the caller's transaction (an import's statement balances).
  static func addRecord(_ db: Database, kind: String, body: String) throws -> StoredRecord {
    let id = try Int64.fetchOne(db, sql: "SELECT next FROM recordCounter WHERE kind = ?", arguments: [kind]) ?? 1
    try db.execute(sql: "INSERT INTO record (kind, id, body) VALUES (?, ?, ?)", arguments: [kind, id, body])
    try db.execute(
      sql: """
        INSERT INTO recordCounter (kind, next) VALUES (?, ?)
        ON CONFLICT (kind) DO UPDATE SET next = excluded.next
        """, arguments: [kind, id + 1])
    return StoredRecord(kind: kind, id: id, body: body)
  }

  public func restoreRecord(_ record: StoredRecord) throws {
    try write { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO record (kind, id, body) VALUES (?, ?, ?)",
        arguments: [record.kind, record.id, record.body])
    }
  }

  public func removeRecord(kind: String, id: Int64) throws -> Bool {
    try write { db in
      try db.execute(sql: "DELETE FROM record WHERE kind = ? AND id = ?", arguments: [kind, id])
      return db.changesCount > 0
    }
  }

  /// Every record and each kind's next id, in the caller's transaction (`expenses copy`).
  static func records(_ db: Database) throws -> (records: [StoredRecord], next: [String: Int64]) {
    let records = try Row.fetchAll(db, sql: "SELECT kind, id, body FROM record ORDER BY kind, id").map {
      StoredRecord(kind: $0["kind"], id: $0["id"], body: $0["body"])
    }
    var next: [String: Int64] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT kind, next FROM recordCounter") { next[row["kind"]] = row["next"] }
    return (records, next)
  }

  /// Writes a copy's records and counters into an empty ledger, in the caller's transaction.
  static func load(records: [StoredRecord], next: [String: Int64], _ db: Database) throws {
    for record in records {
      try db.execute(
        sql: "INSERT INTO record (kind, id, body) VALUES (?, ?, ?)", arguments: [record.kind, record.id, record.body])
    }
    for (kind, id) in next.sorted(by: { $0.key < $1.key }) {
      try db.execute(sql: "INSERT INTO recordCounter (kind, next) VALUES (?, ?)", arguments: [kind, id])
    }
  }
}

import ExpenseStore
import PostgresNIO

/// The service's records (`LedgerStore.records`): stored and handed back, never read.
extension PostgresStore {
  public func records(kind: String) throws -> [StoredRecord] {
    try snapshotRead("records:" + kind) { connection in try records(connection, kind: kind) }
  }

  public func record(kind: String, id: Int64) throws -> StoredRecord? {
    try read { connection in
      try connection.query(
        "SELECT body FROM record WHERE ledger_id = \(ledger) AND kind = \(kind) AND id = \(id)"
      ).first.map { StoredRecord(kind: kind, id: id, body: try $0.decode(String.self)) }
    }
  }

  func records(_ connection: BlockingConnection, kind: String?) throws -> [StoredRecord] {
    try connection.query(
      """
      SELECT kind, id, body FROM record
      WHERE ledger_id = \(ledger) AND (\(kind)::text IS NULL OR kind = \(kind))
      ORDER BY kind COLLATE "C", id
      """
    ).map { row in
      let (kind, id, body) = try row.decode((String, Int64, String).self)
      return StoredRecord(kind: kind, id: id, body: body)
    }
  }

  public func addRecord(kind: String, body: String) throws -> StoredRecord {
    try write { connection in try addRecord(connection, kind: kind, body: body) }
  }

  /// Adds a record on `connection`, in its transaction (an import's statement balances).
  func addRecord(_ connection: BlockingConnection, kind: String, body: String) throws -> StoredRecord {
    let taken = try connection.query(
      """
      INSERT INTO record_counter (ledger_id, kind, next) VALUES (\(ledger), \(kind), 2)
      ON CONFLICT (ledger_id, kind) DO UPDATE SET next = record_counter.next + 1
      RETURNING next - 1
      """)
    guard let id = try taken.first?.decode(Int64.self) else { throw StoreError.sqlite("no record id") }
    try connection.query(
      "INSERT INTO record (ledger_id, kind, id, body) VALUES (\(ledger), \(kind), \(id), \(body))")
    return StoredRecord(kind: kind, id: id, body: body)
  }

  public func restoreRecord(_ record: StoredRecord) throws {
    try write { connection in
      try connection.query(
        """
        INSERT INTO record (ledger_id, kind, id, body) VALUES (\(ledger), \(record.kind), \(record.id), \(record.body))
        ON CONFLICT DO NOTHING
        """)
    }
  }

  public func removeRecord(kind: String, id: Int64) throws -> Bool {
    try write { connection in
      let removed = try connection.query(
        "DELETE FROM record WHERE ledger_id = \(ledger) AND kind = \(kind) AND id = \(id)")
      return (removed.metadata.rows ?? 0) > 0
    }
  }

  /// Each kind's next id, in the caller's transaction (`expenses copy`).
  func recordCounters(_ connection: BlockingConnection) throws -> [String: Int64] {
    var next: [String: Int64] = [:]
    for row in try connection.query("SELECT kind, next FROM record_counter WHERE ledger_id = \(ledger)") {
      let (kind, id) = try row.decode((String, Int64).self)
      next[kind] = id
    }
    return next
  }

  /// Writes a copy's records and counters into this empty ledger, in the caller's transaction.
  func load(records: [StoredRecord], next: [String: Int64], _ connection: BlockingConnection) throws {
    for record in records {
      try connection.query(
        "INSERT INTO record (ledger_id, kind, id, body) VALUES (\(ledger), \(record.kind), \(record.id), \(record.body))"
      )
    }
    for (kind, id) in next.sorted(by: { $0.key < $1.key }) {
      try connection.query("INSERT INTO record_counter (ledger_id, kind, next) VALUES (\(ledger), \(kind), \(id))")
    }
  }
}

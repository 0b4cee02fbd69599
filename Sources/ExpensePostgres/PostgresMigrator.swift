import ExpenseStore
import PostgresNIO

/// Brings a database to `PostgresSchema.version`: each missing migration in one transaction,
/// under an advisory lock so that two processes opening one new database do not both create
/// it. A database written by a newer version is refused (`newerSchema`), never changed.
///
/// A reader (`.read`) migrates too when the schema is older than this build's, as the SQLite
/// store does for a read: its queries name what the newer migrations made (a search reads
/// `expense_text`), and failing on a missing table would be no answer. Its session is
/// read-only by default, so the migration's transaction asks for `READ WRITE` itself.
struct PostgresMigrator {
  let connection: BlockingConnection

  init(_ connection: BlockingConnection) { self.connection = connection }

  /// Migrates a database a reader opens when it is older than this build (see above). A
  /// standby (a replica, in recovery) cannot be written: it gets the primary's migration.
  func migrateForReading() throws {
    let (found, standby) =
      try connection.query(
        "SELECT COALESCE(MAX(version), 0)::bigint, pg_is_in_recovery() FROM schema_version"
      ).first.map { try $0.decode((Int64, Bool).self) } ?? (Int64(0), false)
    if found < Int64(PostgresSchema.version) && !standby { try migrate() }
  }

  /// Any 64-bit number the application owns, naming its migration lock.
  static let lockKey: Int64 = 0x6578_7065_6e73_6573  // "expenses"

  func migrate() throws {
    try connection.execute("BEGIN READ WRITE")
    do {
      try connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
      // The migrations see every ledger's rows (row-level security fails closed otherwise).
      try connection.query("SELECT set_config(\(PostgresSchema.scopeSetting), 'all', true)")
      try connection.execute(
        """
        CREATE TABLE IF NOT EXISTS schema_version (
          version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
        """)
      let found: Int
      do {
        found =
          try connection.query("SELECT COALESCE(MAX(version), 0)::bigint FROM schema_version")
          .first.map { Int(try $0.decode(Int64.self)) } ?? 0
      } catch let error as StoreError {
        throw error
      } catch {
        throw PostgresErrors.map(error, location: connection.location)
      }
      if found > PostgresSchema.version {
        throw StoreError.newerSchema(
          path: connection.location.redacted, found: found, supported: PostgresSchema.version)
      }
      for (index, migration) in PostgresSchema.migrations.enumerated() where index + 1 > found {
        for statement in migration.statements { try connection.execute(statement) }
        try connection.query(
          "INSERT INTO schema_version (version, name) VALUES (\(index + 1), \(migration.name))")
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }
}

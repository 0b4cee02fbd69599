import ExpenseStore
import PostgresNIO

/// Which PostgreSQL cluster a store is in, and whether it is a standby.
extension PostgresStore {
  /// The cluster's system identifier (`pg_control_system()`), which `initdb` draws and every
  /// physical copy keeps: a streaming replica has its primary's, any other cluster another.
  /// Why: a read replica is trusted to hold the primary's data once its revision has caught up,
  /// which an unrelated database with a ledger of the same name could seem to do.
  public func clusterIdentifier() throws -> String {
    try read { connection in
      try connection.query("SELECT system_identifier::text FROM pg_control_system()").first?.decode(String.self)
        ?? ""
    }
  }

  /// Whether this server is a standby replaying a primary's WAL (`pg_is_in_recovery()`).
  public func isStandby() throws -> Bool {
    try read { connection in try connection.query("SELECT pg_is_in_recovery()").first?.decode(Bool.self) ?? false }
  }
}

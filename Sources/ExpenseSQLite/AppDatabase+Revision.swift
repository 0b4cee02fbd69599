import ExpenseStore
import GRDB

extension AppDatabase {
  /// The revision: grows with every write to what the API serves (see `migrateTokens`).
  public func revision() throws(StoreError) -> Int64 {
    try read { db in try Int64.fetchOne(db, sql: "SELECT value FROM revision WHERE id = 1") ?? 0 }
  }

  /// SQLite's `data_version` of this connection: changes whenever another connection (of this
  /// process or another) commits, a restore included. No I/O in WAL mode (the shared-memory
  /// index), so a cache can ask it on every request.
  ///
  /// The one-row read first is needed: a connection takes its snapshot at its first table
  /// read, and before that the pragma answers from the previous snapshot.
  /// Runs outside an explicit transaction (no BEGIN/COMMIT round: it is asked per request).
  public func dataVersion() throws(StoreError) -> Int64 {
    do {
      let body = { (db: Database) throws -> Int64 in
        _ = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM revision WHERE id = 1"))
        return try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
      }
      // Inside `consistently` or `atomically` the queue is held by the open session: ask it there.
      return try readsJoinOpenTransaction || joinsOpenWrite ? writer.unsafeReentrantRead(body) : writer.inDatabase(body)
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }
}

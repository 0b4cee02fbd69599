import ExpenseStore
import GRDB

extension AppDatabase {
  /// The databases whose `consistently` body runs on this task right now: their reads join the
  /// open read transaction instead of opening one each.
  @TaskLocal static var consistentReads: Set<ObjectIdentifier> = []

  /// Whether a read of this database joins a `consistently` transaction already open.
  var readsJoinOpenTransaction: Bool { AppDatabase.consistentReads.contains(ObjectIdentifier(self)) }

  /// `LedgerStore.consistently`: `body`'s reads are ONE read transaction (WAL: one snapshot of
  /// the file), so a report's totals, budgets and rows are of one committed state even while
  /// another process commits imports between them. Why not the plain default: each read was a
  /// transaction of its own, and a JSON report's rows could be an import ahead of its counts.
  public func consistently<T>(_ body: () throws -> T) throws -> T {
    if readsJoinOpenTransaction { return try body() }
    do {
      return try writer.read { db in
        // The snapshot starts at the first read: take it now, before `body` looks at anything.
        _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
        return try AppDatabase.$consistentReads.withValue(AppDatabase.consistentReads.union([ObjectIdentifier(self)])) {
          try body()
        }
      }
    } catch let error as DatabaseError {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// Runs `body` inside the open `consistently` transaction, or in a read transaction of its own.
  func joiningRead<T>(_ body: (Database) throws -> T) throws -> T {
    if readsJoinOpenTransaction { return try writer.unsafeReentrantRead(body) }
    return try writer.read(body)
  }
}

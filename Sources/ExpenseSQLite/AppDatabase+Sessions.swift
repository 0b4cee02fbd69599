import ExpenseStore
import GRDB

/// The two sessions a use case can open over several store calls: `consistently` (one read
/// transaction: one state) and `atomically` (one write transaction: a check and the update it
/// guards, all or nothing). The store's own calls made inside one join it: a read on the same
/// connection, a write as a savepoint, so each call is still all or nothing alone.
///
/// Why task-locals: GRDB's queue is not reentrant (a nested `write` traps), so a call must know
/// it runs inside a session of this database to join it instead of opening its own.
extension AppDatabase {
  /// The databases whose `consistently` body runs on this task right now: their reads join the
  /// open read transaction instead of opening one each.
  @TaskLocal static var consistentReads: Set<ObjectIdentifier> = []
  /// The databases whose `atomically` body runs on this task right now: their reads and writes
  /// join its write transaction.
  @TaskLocal static var atomicWrites: Set<ObjectIdentifier> = []

  /// Whether a write (or read) of this database joins an `atomically` transaction already open.
  var joinsOpenWrite: Bool { AppDatabase.atomicWrites.contains(ObjectIdentifier(self)) }

  /// `LedgerStore.atomically`: `body`'s store calls are ONE write transaction, holding SQLite's
  /// write lock from the start (`BEGIN IMMEDIATE`), so no other connection, of this process or
  /// another, writes between a check and the update it guards; if `body` throws, nothing of it
  /// is kept. Nested, it joins the open one.
  public func atomically<T>(_ body: () throws -> T) throws -> T {
    if joinsOpenWrite { return try body() }
    if readsJoinOpenTransaction { throw StoreError.sqlite("a write was asked inside a read-only report read") }
    do {
      var value: T?
      try writer.writeWithoutTransaction { db in
        try db.inTransaction(.immediate) {
          value = try AppDatabase.$atomicWrites.withValue(AppDatabase.atomicWrites.union([ObjectIdentifier(self)])) {
            try body()
          }
          return .commit
        }
      }
      guard let value else { throw StoreError.sqlite("a write session ended without its result") }
      return value
    } catch let error as DatabaseError {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// Whether a read of this database joins a `consistently` transaction already open.
  var readsJoinOpenTransaction: Bool { AppDatabase.consistentReads.contains(ObjectIdentifier(self)) }

  /// `LedgerStore.consistently`: `body`'s reads are ONE read transaction (WAL: one snapshot of
  /// the file), so a report's totals, budgets and rows are of one committed state even while
  /// another process commits imports between them. Why not the plain default: each read was a
  /// transaction of its own, and a JSON report's rows could be an import ahead of its counts.
  public func consistently<T>(_ body: () throws -> T) throws -> T {
    // Inside `atomically` the reads already see one state: the write transaction's.
    if readsJoinOpenTransaction || joinsOpenWrite { return try body() }
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

  /// Runs `body` inside the open `consistently` or `atomically` transaction, or in a read
  /// transaction of its own.
  func joiningRead<T>(_ body: (Database) throws -> T) throws -> T {
    if readsJoinOpenTransaction || joinsOpenWrite { return try writer.unsafeReentrantRead(body) }
    return try writer.read(body)
  }

  /// Runs `body` as a savepoint of the open `atomically` transaction: undone alone if it throws.
  func joiningWrite<T>(_ body: (Database) throws -> T) throws -> T {
    try writer.unsafeReentrantWrite { db in
      var value: T?
      try db.inSavepoint {
        value = try body(db)
        return .commit
      }
      guard let value else { throw StoreError.sqlite("a write ended without its result") }
      return value
    }
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO

/// One ledger in a PostgreSQL database as a `LedgerStore`: the second conformance beside the
/// SQLite file (`AppDatabase`), passing the same `StoreContractTests`.
///
/// One connection per call, used by one call at a time (a lock): each call is one statement,
/// or one transaction that first locks its ledger's row, so writers of one ledger take turns
/// (as SQLite's one writer does) and an import's new ids are consecutive. Calls block their
/// thread on the connection (see `BlockingConnection` for why that is safe here).
///
/// Where the connection comes from (`Source`): the CLI's store opens one of its own, narrowed
/// to its ledger for good; a server's stores lease one from the pool all its ledgers share
/// (`PostgresPool`) for each outermost call, narrowed to the store's ledger for that lease, so
/// an idle store holds no connection.
///
/// The store opens one ledger: the URL's `ledger` parameter or `default` (which the schema
/// creates); another ledger must exist, unless the opener asks to create it (`expenses copy`).
public final class PostgresStore: LedgerStore, @unchecked Sendable {
  /// What the store is opened for.
  public enum Access: Sendable {
    /// Reads only: the session refuses writes; a database without the schema is `noDatabase`.
    case read
    /// Reads and writes: the schema is created or migrated first.
    case write
  }

  /// Where a store's calls get their connection.
  enum Source {
    /// Its own, narrowed to the store's ledger when it was opened.
    case own(BlockingConnection)
    /// A lease from a pool for each outermost call.
    case pooled(PostgresPool)
  }

  public let location: PostgresLocation
  /// The ledger this store reads and writes.
  let ledger: Int64
  /// Its name.
  public let ledgerName: String
  /// Whether opening created the ledger (`createLedger`).
  public let createdLedger: Bool
  let source: Source
  /// Whether the store's sessions refuse writes (`Access.read`).
  let readOnly: Bool
  /// Serializes calls: one connection runs one statement (or transaction) at a time.
  /// Recursive: inside `atomically` or `runOnce` the store's own calls run on the same thread.
  private let lock = NSRecursiveLock()
  /// How deep the lock's holder is in `atomically`/`runOnce` (read and written only under
  /// `lock`): above 0, a call joins the open transaction (a write as a savepoint).
  private var depth = 0
  /// The connection of the call under way and how many calls of this thread hold it (under
  /// `lock`): nested calls share the outermost call's connection and its transaction.
  private var held: BlockingConnection?
  private var holds = 0
  /// Answers of reads made in the open `consistently` transaction, by read (under `lock`; nil
  /// outside one): see `snapshotRead`.
  private var snapshotMemo: [String: Any]?

  /// A server, not a file: no output file can replace it.
  public var filePath: String? { nil }

  /// Opens the store at a `postgres://` URL, creating or migrating the schema for `.write`.
  public convenience init(url: String, access: Access = .write, createLedger: Bool = false) throws {
    guard let location = PostgresLocation(url: url) else {
      throw StoreError.cannotOpen(
        path: "postgres://…",
        reason:
          "not a PostgreSQL URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE or postgres://USER@/DATABASE?host=SOCKET_DIR)"
      )
    }
    try self.init(location: location, access: access, createLedger: createLedger)
  }

  /// - Parameter createLedger: a missing ledger is created (for `.write`) instead of refused.
  public init(location: PostgresLocation, access: Access = .write, createLedger: Bool = false) throws {
    self.location = location
    ledgerName = location.ledger ?? PostgresSchema.defaultLedger
    readOnly = access == .read
    let connection = try BlockingConnection(location)
    source = .own(connection)
    if access == .read {
      try connection.execute("SET default_transaction_read_only = on")
      let schema = try connection.query("SELECT to_regclass('schema_version') IS NOT NULL")
      guard try schema.first?.decode(Bool.self) == true else { throw StoreError.noDatabase(path: location.redacted) }
      try PostgresMigrator(connection).migrateForReading()
    } else {
      try PostgresMigrator(connection).migrate()
    }
    var created = false
    if access == .write && createLedger {
      // A ledger made for a copy is made in the copy's transaction, left open here: a copy
      // killed half-way leaves no empty ledger registered (`finishCreatedLedger`).
      try connection.execute("BEGIN")
      let name = ledgerName
      created = try Self.scoped(connection) { try Self.insertLedger(name, on: $0) }
      if !created { try connection.execute("COMMIT") }
    }
    createdLedger = created
    ledger = try Self.ledgerID(named: ledgerName, location: location, connection, inTransaction: created)
    // Row-level security narrows this session to its ledger (`PostgresSchema.v3Users`).
    try connection.query("SELECT set_config(\(PostgresSchema.ledgerSetting), \(String(ledger)), false)")
    connection.session = nil
    // Every call until `finishCreatedLedger` joins the creating transaction.
    if created {
      depth = 1
      held = connection
      holds = 1
    }
  }

  /// Opens ledger `name` (nil: `default`) over a server's shared `pool`: the schema is
  /// migrated (`.write`) or checked (`.read`) once per pool, and no connection is held
  /// between calls. The ledger must exist.
  public init(pool: PostgresPool, ledger name: String?, access: Access) throws {
    var location = pool.location
    location.ledger = name
    self.location = location
    ledgerName = name ?? PostgresSchema.defaultLedger
    readOnly = access == .read
    createdLedger = false
    source = .pooled(pool)
    try pool.checkSchema(write: access == .write)
    let connection = try pool.lease(ledger: nil, readOnly: readOnly)
    var clean = false
    defer { pool.giveBack(connection, clean: clean) }
    ledger = try Self.ledgerID(named: ledgerName, location: location, connection, inTransaction: false)
    clean = true
  }

  /// The id of ledger `name`, read in the directory's scope (a session names no ledger yet:
  /// finding its ledger is the directory's work); inside the open transaction when
  /// `inTransaction`, else in one of its own.
  private static func ledgerID(
    named name: String, location: PostgresLocation, _ connection: BlockingConnection, inTransaction: Bool
  ) throws -> Int64 {
    if !inTransaction { try connection.execute("BEGIN") }
    let rows = try scoped(connection) { try $0.query("SELECT id FROM ledger WHERE name = \(name)") }
    if !inTransaction { try connection.execute("COMMIT") }
    guard let row = rows.first else {
      // Only a reader meets a database without the schema (a writer has just made it).
      if name == PostgresSchema.defaultLedger { throw StoreError.noDatabase(path: location.redacted) }
      throw StoreError.noLedger(path: location.redacted, ledger: name)
    }
    return try row.decode(Int64.self)
  }

  /// Ends the transaction that created this store's ledger (`createLedger`): committed with
  /// what was written into it (`keep`), or rolled back, ledger and all. Does nothing for a
  /// ledger that existed.
  public func finishCreatedLedger(keep: Bool) throws {
    guard createdLedger else { return }
    try read { connection in
      guard depth == 1 else { return }
      depth = 0
      holds -= 1
      try connection.execute(keep ? "COMMIT" : "ROLLBACK")
    }
  }

  /// Runs `body` inside the open transaction with the directory's scope (row-level security
  /// shows it every ledger's directory rows), and narrows the transaction again after.
  static func scoped<T>(_ connection: BlockingConnection, _ body: (BlockingConnection) throws -> T) throws -> T {
    try connection.query("SELECT set_config(\(PostgresSchema.scopeSetting), 'directory', true)")
    let value = try body(connection)
    try connection.query("SELECT set_config(\(PostgresSchema.scopeSetting), '', true)")
    return value
  }

  /// The directory's own work (`PostgresStore+Directory`): `body` in one transaction (a write
  /// with `keep`, holding the ledger's lock like every write) that says `directory`, the only
  /// way a session sees other ledgers' directory rows. Inside another transaction, there.
  func inDirectory<T>(write keep: Bool = false, _ body: (BlockingConnection) throws -> T) throws -> T {
    if keep { return try write { connection in try Self.scoped(connection, body) } }
    return try read { connection in
      if depth > 0 { return try Self.scoped(connection, body) }
      try connection.execute("BEGIN")
      do {
        let value = try Self.scoped(connection, body)
        try connection.execute("COMMIT")
        return value
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }
  }

  /// Makes ledger `name` owned by `local`, unless it exists; whether it was made.
  static func insertLedger(_ name: String, on connection: BlockingConnection) throws -> Bool {
    guard
      let row = try connection.query(
        "INSERT INTO ledger (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING RETURNING id"
      ).first
    else { return false }
    let id = try row.decode(Int64.self)
    try connection.query(
      """
      INSERT INTO ledger_member (ledger_id, user_name, role, since)
      VALUES (\(id), \(DirectoryName.localUser), 'owner', \(ImportRecord.timestamp(Date())))
      """)
    return true
  }

  /// Runs `body` on the connection alone; errors become `StoreError`s. The outermost call of
  /// a pooled store leases its connection and gives it back when it returns.
  func read<T>(_ body: (BlockingConnection) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    let connection = try hold()
    var clean = false
    defer { release(connection, clean: clean) }
    do {
      let value = try body(connection)
      clean = true
      return value
    } catch let error as StoreError {
      throw error
    } catch let error as PostgresDecodingError {
      throw StoreError.unreadable(path: location.redacted, detail: "column \(error.columnName): \(error.code)")
    }
  }

  /// The connection of the call under way, or a new lease (under `lock`).
  private func hold() throws -> BlockingConnection {
    if let held {
      holds += 1
      return held
    }
    let connection: BlockingConnection
    switch source {
    case .own(let own): connection = own
    case .pooled(let pool): connection = try pool.lease(ledger: ledger, readOnly: readOnly)
    }
    held = connection
    holds = 1
    return connection
  }

  /// Ends one hold (under `lock`); the last gives a lease back, rolled back unless `clean`.
  private func release(_ connection: BlockingConnection, clean: Bool) {
    holds -= 1
    guard holds == 0 else { return }
    held = nil
    if case .pooled(let pool) = source { pool.giveBack(connection, clean: clean) }
  }

  /// Runs `body` in one transaction holding this ledger's row lock; rolled back if it throws,
  /// or when `keep` is false (a dry run). Inside `atomically` or `runOnce`, a savepoint of
  /// their transaction instead.
  func write<T>(keep: Bool = true, _ body: (BlockingConnection) throws -> T) throws -> T {
    try read { connection in
      if depth > 0 { return try savepoint(keep: keep, connection, body) }
      try connection.execute("BEGIN")
      do {
        try connection.query("SELECT 1 FROM ledger WHERE id = \(ledger) FOR UPDATE")
        let value = try body(connection)
        try connection.execute(keep ? "COMMIT" : "ROLLBACK")
        return value
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }
  }

  /// `body` as a savepoint of the open transaction: undone alone if it throws or `keep` is false.
  private func savepoint<T>(keep: Bool, _ connection: BlockingConnection, _ body: (BlockingConnection) throws -> T)
    throws -> T
  {
    try connection.execute("SAVEPOINT nested")
    do {
      let value = try body(connection)
      if !keep { try connection.execute("ROLLBACK TO SAVEPOINT nested") }
      try connection.execute("RELEASE SAVEPOINT nested")
      return value
    } catch {
      try? connection.execute("ROLLBACK TO SAVEPOINT nested")
      try? connection.execute("RELEASE SAVEPOINT nested")
      throw error
    }
  }

  /// One transaction holding the ledger's row lock, which every writer of the ledger takes
  /// first (any process, the CLI too): what `body` reads through this store cannot change
  /// before what it writes commits. READ COMMITTED is enough: each statement after the lock
  /// sees every commit made before the lock was granted.
  public func atomically<T>(_ body: () throws -> T) throws -> T {
    try write { _ in try nested(body) }
  }

  /// One `REPEATABLE READ` read-only transaction: every statement `body` makes through this
  /// store sees the snapshot of its first, whatever other processes commit meanwhile. Inside
  /// `atomically` or another `consistently`, `body` joins the open transaction instead.
  public func consistently<T>(_ body: () throws -> T) throws -> T {
    try read { connection in
      if depth > 0 { return try nested(body) }
      try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      snapshotMemo = [:]
      defer { snapshotMemo = nil }
      do {
        let value = try nested(body)
        try connection.execute("COMMIT")
        return value
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }
  }

  /// `load` run once per `consistently` transaction: its snapshot is read-only and never
  /// moves, so a read made again answers what it answered the first time. A report asks for
  /// the budgets, the kinds, the records and the history's start from several parts (rollover,
  /// goals, periods, recurring); this makes each one statement instead of up to five. Outside
  /// such a transaction, every call reads.
  func snapshotRead<T>(_ key: String, _ load: (BlockingConnection) throws -> T) throws -> T {
    try read { connection in
      if let value = snapshotMemo?[key] as? T { return value }
      let value = try load(connection)
      if snapshotMemo != nil { snapshotMemo?[key] = value }
      return value
    }
  }

  /// Runs `body` with this store's calls joining the open transaction.
  func nested<T>(_ body: () throws -> T) rethrows -> T {
    depth += 1
    defer { depth -= 1 }
    return try body()
  }

  /// The stored spellings of every known category (budgets first: a budget's spelling wins).
  func categoryNames(_ connection: BlockingConnection) throws -> CategoryNames {
    let rows = try connection.query(
      """
      SELECT category FROM budget WHERE ledger_id = \(ledger)
      UNION ALL SELECT category FROM month_total WHERE ledger_id = \(ledger) AND category <> ''
      UNION ALL SELECT category FROM rule WHERE ledger_id = \(ledger)
      UNION ALL SELECT name FROM category_kind WHERE ledger_id = \(ledger)
      """)
    return CategoryNames(spellings: try rows.map { try $0.decode(String.self) })
  }
}

import ExpenseStore
import Foundation

/// One bounded set of connections to a PostgreSQL database, shared by every ledger a server
/// answers for (`expenses serve --pool-size`).
///
/// Why shared: before, each open ledger held connections of its own (a writer, readers, a
/// watcher), because a session was narrowed to one ledger for good. A thousand households
/// would have needed thousands of backends. Now a store leases a connection for one call (or
/// one transaction) and gives it back; the connection is narrowed to the lease's ledger
/// first, so however many ledgers are open, the server never holds more than `size`
/// connections to the database.
///
/// Why the ledger stays safe: a connection is handed out only after its session names the
/// lease's ledger (`Session.apply`, one statement, skipped when it already does), and row-level
/// security shows a session only its ledger's rows. A connection given back inside a
/// transaction, or after a failure, is rolled back first, and closed if that fails: nothing of
/// one lease (an open transaction, a cursor, a lock) reaches the next.
///
/// A caller that finds every connection in use waits up to `wait` seconds, then gets
/// `StoreError.poolExhausted` (busy: the API answers 503), never a deadlock.
public final class PostgresPool: @unchecked Sendable {
  /// The database (its URL without a ledger).
  public let location: PostgresLocation
  /// The most connections open at once.
  public let size: Int
  /// Seconds a lease waits for a connection before it fails.
  let wait: Double
  private let condition = NSCondition()
  /// Connections not leased, the most recently given back last.
  private var idle: [BlockingConnection] = []
  /// Connections open, leased or idle.
  private var open = 0
  /// Connections leased now.
  private var leased = 0
  /// Leases that had to wait for a connection, since the start.
  private var waits = 0
  /// Whether the schema was checked (read) or migrated (write) once by this pool.
  private var checked: Set<Bool> = []

  /// Opens no connection yet: each is opened when a lease finds none idle.
  public init(location: PostgresLocation, size: Int, wait: Double) {
    var database = location
    database.ledger = nil
    self.location = database
    self.size = max(1, size)
    self.wait = wait
  }

  /// What the pool holds now (for `/metrics` and tests).
  public struct Usage: Sendable, Equatable {
    public var open: Int
    public var leased: Int
    public var waits: Int

    public init(open: Int, leased: Int, waits: Int) {
      self.open = open
      self.leased = leased
      self.waits = waits
    }
  }

  public var usage: Usage {
    condition.lock()
    defer { condition.unlock() }
    return Usage(open: open, leased: leased, waits: waits)
  }

  /// A connection whose session names `ledger` (nil: none, so it sees no ledger's rows) and
  /// refuses writes when `readOnly`; `giveBack` it when done.
  func lease(ledger: Int64?, readOnly: Bool) throws -> BlockingConnection {
    try lease(Session(ledger: ledger, readOnly: readOnly))
  }

  /// A connection whose session says `wanted`.
  func lease(_ wanted: Session) throws -> BlockingConnection {
    let connection = try take(preferring: wanted)
    do {
      try connection.session.apply(wanted, on: connection)
      return connection
    } catch {
      discard(connection)
      throw error
    }
  }

  /// Ends a lease. `clean` says the holder ended every transaction it began; otherwise the
  /// connection is rolled back, and closed when even that fails.
  func giveBack(_ connection: BlockingConnection, clean: Bool) {
    if connection.isClosed || (!clean && (try? connection.execute("ROLLBACK")) == nil) {
      discard(connection)
      return
    }
    condition.lock()
    leased -= 1
    idle.append(connection)
    condition.signal()
    condition.unlock()
  }

  /// Runs the schema's check once per access: a writer migrates (`PostgresMigrator`), a reader
  /// makes sure the schema is there and migrates it only when it is older than this build.
  func checkSchema(write: Bool) throws {
    condition.lock()
    let done = checked.contains(write)
    condition.unlock()
    if done { return }
    let connection = try lease(ledger: nil, readOnly: !write)
    var clean = false
    defer { giveBack(connection, clean: clean) }
    if write {
      try PostgresMigrator(connection).migrate()
    } else {
      let schema = try connection.query("SELECT to_regclass('schema_version') IS NOT NULL")
      guard try schema.first?.decode(Bool.self) == true else { throw StoreError.noDatabase(path: location.redacted) }
      try PostgresMigrator(connection).migrateForReading()
    }
    clean = true
    condition.lock()
    checked.insert(write)
    condition.unlock()
  }

  /// An idle connection, the most recently given back whose session already says `wanted`
  /// (no statement to narrow it) else the most recently given back; or a new one.
  private func take(preferring wanted: Session) throws -> BlockingConnection {
    condition.lock()
    let deadline = Date(timeIntervalSinceNow: wait)
    var waited = false
    while idle.isEmpty && open >= size {
      if !waited {
        waited = true
        waits += 1
      }
      guard condition.wait(until: deadline) else {
        condition.unlock()
        throw StoreError.poolExhausted(path: location.redacted, size: size)
      }
    }
    leased += 1
    if let index = idle.lastIndex(where: { $0.session == wanted }) {
      let connection = idle.remove(at: index)
      condition.unlock()
      return connection
    }
    if let connection = idle.popLast() {
      condition.unlock()
      return connection
    }
    open += 1
    condition.unlock()
    do {
      return try BlockingConnection(location)
    } catch {
      condition.lock()
      open -= 1
      leased -= 1
      condition.signal()
      condition.unlock()
      throw error
    }
  }

  /// Closes a leased connection and frees its place.
  private func discard(_ connection: BlockingConnection) {
    condition.lock()
    open -= 1
    leased -= 1
    condition.signal()
    condition.unlock()
    withExtendedLifetime(connection) {}
  }
}

/// What a connection's session says: the ledger row-level security narrows it to, and whether
/// it refuses writes. Tracked per connection, so a lease for the same ledger and access costs
/// no statement.
struct Session: Equatable {
  var ledger: Int64?
  var readOnly: Bool
  /// Whether the session says `directory` (`PostgresSchema.scopeSetting`) for good: every
  /// ledger's directory rows (names, revisions, members, token hashes) and no ledger's data.
  /// Only the shared read of change stamps leases such a session (`PostgresStore.stamps`).
  var directory = false

  /// A new connection's: no ledger, writes allowed.
  static let fresh = Session(ledger: nil, readOnly: false)
}

extension Session? {
  /// Makes the session of `connection` say `wanted`, in one statement, unless it does.
  /// Recorded only once the server has answered: a failed statement leaves the state unknown
  /// (nil), so the next lease sets it again.
  mutating func apply(_ wanted: Session, on connection: BlockingConnection) throws {
    if self == wanted { return }
    self = nil
    let ledger = wanted.ledger.map(String.init) ?? ""
    let readOnly = wanted.readOnly ? "on" : "off"
    let scope = wanted.directory ? "directory" : ""
    try connection.query(
      """
      SELECT set_config(\(PostgresSchema.ledgerSetting), \(ledger), false),
             set_config('default_transaction_read_only', \(readOnly), false),
             set_config(\(PostgresSchema.scopeSetting), \(scope), false)
      """)
    self = wanted
  }
}

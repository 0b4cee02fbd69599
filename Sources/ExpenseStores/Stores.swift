import ExpenseCore
import ExpensePostgres
import ExpenseSQLite
import ExpenseStore
import Synchronization

/// The composition root's factory: which store a location names. A `postgres://` URL is a
/// `PostgresStore`; anything else is a SQLite file (`AppDatabase`), whose ledgers other than
/// `default` are files of their own beside it (`LedgerFiles`).
///
/// Why here and not in the service: the executable (the CLI and `serve`) chooses the stores it
/// links and hands them to `ExpenseService` as `any LedgerStore`, so the service, the server
/// and every use case depend on the `LedgerStore` protocol alone, and a store added later is
/// one more case here.
public struct Stores: StoreOpening {
  /// The pools of a server's stores, one per database; nil: each store has its own connection.
  private let pools: PostgresPools?

  /// Stores that each open their own connection (the CLI).
  public init() { pools = nil }

  /// Stores of one database that share at most `poolSize` connections to it, whatever their
  /// ledger (`expenses serve --pool-size`, `PostgresPool`). SQLite files are opened as before.
  public init(poolSize: Int) { pools = PostgresPools(size: poolSize) }

  public func open(_ location: String, access: StoreAccess, wait: Double, ledger: String?) throws -> OpenedStore {
    if PostgresLocation.isURL(location) {
      let mode: PostgresStore.Access = access == .read ? .read : .write
      guard var parsed = PostgresLocation(url: location) else {
        return OpenedStore(store: try PostgresStore(url: location, access: mode))
      }
      if let ledger { parsed.ledger = ledger }
      if let pools {
        return OpenedStore(
          store: try PostgresStore(pool: pools.pool(for: parsed, wait: wait), ledger: parsed.ledger, access: mode))
      }
      return OpenedStore(store: try PostgresStore(location: parsed, access: mode))
    }
    let mode: AppDatabase.Access = access == .read ? .read : .write
    let check: AppDatabase.DamageCheck = access == .writeCheckedAtCommit ? .atCommit : .beforeWriting
    if access != .read { AppDatabase.removeLeftovers(besides: location) }
    // The check beside the command is for the file the import writes: the ledger's own.
    let isLedger = ledger == nil || ledger == DirectoryName.defaultLedger
    let main = try AppDatabase(path: location, access: mode, wait: wait, damageCheck: isLedger ? check : .beforeWriting)
    guard let ledger, ledger != DirectoryName.defaultLedger else { return OpenedStore(store: main) }
    guard try main.ledgerNames().contains(ledger) else { throw StoreError.noLedger(path: location, ledger: ledger) }
    let file = LedgerFiles.path(of: ledger, besides: location)
    // A registered ledger whose file is gone is reported, never silently made again empty.
    guard LedgerFiles.existing(file) != nil else { throw StoreError.noDatabase(path: file) }
    if access != .read { AppDatabase.removeLeftovers(besides: file) }
    return OpenedStore(
      store: try AppDatabase(path: file, access: mode, wait: wait, damageCheck: check), directory: main)
  }

  public func openInMemory() throws -> any LedgerStore { try AppDatabase() }

  public func databaseExists(at location: String) -> Bool {
    PostgresLocation.isURL(location) || LedgerFiles.existing(location) != nil
  }

  public func createFile(at path: String) throws -> any LedgerStore { try AppDatabase(path: path, access: .write) }

  public func openCreatingLedger(_ location: PostgresLocation) throws -> any CreatedLedgerStore {
    try PostgresStore(location: location, access: .write, createLedger: true)
  }

  public func openReplica(_ location: PostgresLocation) throws -> any ReplicatedStore {
    try PostgresStore(location: location, access: .read)
  }

  public var files: any LedgerFileOperations { SQLiteFiles() }
}

/// One `PostgresPool` per database a server's stores open (in practice one: `--db`).
final class PostgresPools: Sendable {
  let size: Int
  private let pools = Mutex<[PostgresLocation: PostgresPool]>([:])

  init(size: Int) { self.size = size }

  /// The pool of `location`'s database (its ledger aside), made on first use.
  func pool(for location: PostgresLocation, wait: Double) -> PostgresPool {
    var database = location
    database.ledger = nil
    return pools.withLock { pools in
      if let pool = pools[database] { return pool }
      let pool = PostgresPool(location: database, size: size, wait: wait)
      pools[database] = pool
      return pool
    }
  }

  /// What the pools hold now, summed.
  var usage: PostgresPool.Usage {
    pools.withLock { pools in
      pools.values.reduce(into: PostgresPool.Usage(open: 0, leased: 0, waits: 0)) { sum, pool in
        let usage = pool.usage
        sum.open += usage.open
        sum.leased += usage.leased
        sum.waits += usage.waits
      }
    }
  }
}

/// The file-only operations, for SQLite files.
struct SQLiteFiles: LedgerFileOperations {
  func removeLeftovers(besides path: String) { AppDatabase.removeLeftovers(besides: path) }

  func verifyBackup(at path: String) throws -> BackupInfo { try AppDatabase.verifyBackup(at: path) }

  func restore(databaseAt path: String, from copy: String, keepingPreviousIn previous: String, wait: Double) throws
    -> RestoreOutcome
  {
    try AppDatabase.restore(databaseAt: path, from: copy, keepingPreviousIn: previous, wait: wait)
  }
}

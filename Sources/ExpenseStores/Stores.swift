import ExpenseCore
import ExpensePostgres
import ExpenseSQLite
import ExpenseStore

/// The composition root's factory: which store a location names. A `postgres://` URL is a
/// `PostgresStore`; anything else is a SQLite file (`AppDatabase`), whose ledgers other than
/// `default` are files of their own beside it (`LedgerFiles`).
///
/// Why here and not in the service: the executable (the CLI and `serve`) chooses the stores it
/// links and hands them to `ExpenseService` as `any LedgerStore`, so the service, the server
/// and every use case depend on the `LedgerStore` protocol alone, and a store added later is
/// one more case here.
public struct Stores: StoreOpening {
  public init() {}

  public func open(_ location: String, access: StoreAccess, wait: Double, ledger: String?) throws -> OpenedStore {
    if PostgresLocation.isURL(location) {
      let mode: PostgresStore.Access = access == .write ? .write : .read
      guard var parsed = PostgresLocation(url: location) else {
        return OpenedStore(store: try PostgresStore(url: location, access: mode))
      }
      if let ledger { parsed.ledger = ledger }
      return OpenedStore(store: try PostgresStore(location: parsed, access: mode))
    }
    let mode: AppDatabase.Access = access == .write ? .write : .read
    if access == .write { AppDatabase.removeLeftovers(besides: location) }
    let main = try AppDatabase(path: location, access: mode, wait: wait)
    guard let ledger, ledger != DirectoryName.defaultLedger else { return OpenedStore(store: main) }
    guard try main.ledgerNames().contains(ledger) else { throw StoreError.noLedger(path: location, ledger: ledger) }
    let file = LedgerFiles.path(of: ledger, besides: location)
    // A registered ledger whose file is gone is reported, never silently made again empty.
    guard LedgerFiles.existing(file) != nil else { throw StoreError.noDatabase(path: file) }
    if access == .write { AppDatabase.removeLeftovers(besides: file) }
    return OpenedStore(store: try AppDatabase(path: file, access: mode, wait: wait), directory: main)
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

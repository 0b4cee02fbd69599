/// How the program gets its stores: the composition root's factory (`Stores`, in the
/// executable's `ExpenseStores` module) implements it and hands it to the service, so the use
/// cases that open a second store (a ledger's own file, a copy's source and target, a replica,
/// a dry run's empty store) name no concrete store and the service links none.
///
/// Why a protocol and not closures: the set of ways to open is small and fixed, and one value
/// carries them through the server's ledger cache and the CLI alike.
public protocol StoreOpening: Sendable {
  /// The store at `location` (a SQLite file's path or a `postgres://` URL), for `ledger` (nil:
  /// the URL's `ledger=`, else `default`). A SQLite ledger other than `default` is its own
  /// file beside the main one, which is returned as `directory` (nil: the store is its own).
  func open(_ location: String, access: StoreAccess, wait: Double, ledger: String?) throws -> OpenedStore
  /// An empty store in memory with a new file's defaults (a dry run with no database yet).
  func openInMemory() throws -> any LedgerStore
  /// Whether there is a database at `location` to open without creating one (a server URL
  /// always answers yes: the server says whether the database is there).
  func databaseExists(at location: String) -> Bool
  /// A new SQLite file at `path` (nothing may be there), opened to write.
  func createFile(at path: String) throws -> any LedgerStore
  /// The ledger `location` names, created when missing; `finish(keep:)` ends its creation.
  func openCreatingLedger(_ location: PostgresLocation) throws -> any CreatedLedgerStore
  /// A read-only store on a streaming replica.
  func openReplica(_ location: PostgresLocation) throws -> any ReplicatedStore
  /// What only a store kept in a file can do: restore, backups, leftovers.
  var files: any LedgerFileOperations { get }
}

/// A store `StoreOpening.open` opened, with where its ledgers and users are kept.
public struct OpenedStore {
  public var store: any LedgerStore
  /// The main file of a SQLite ledger kept in a file of its own; nil: `store` itself.
  public var directory: (any LedgerStore)?

  public init(store: any LedgerStore, directory: (any LedgerStore)? = nil) {
    self.store = store
    self.directory = directory
  }
}

/// The file-only operations (a PostgreSQL database is restored with the server's own tools).
public protocol LedgerFileOperations: Sendable {
  /// Removes what a `restore` or `copy` killed half-way left beside `path`.
  func removeLeftovers(besides path: String)
  /// Checks a backup file: integrity, an expenses database, a schema this version reads.
  func verifyBackup(at path: String) throws -> BackupInfo
  /// Replaces the database at `path` with the verified private `copy`, keeping the old one in
  /// `previous`.
  func restore(databaseAt path: String, from copy: String, keepingPreviousIn previous: String, wait: Double) throws
    -> RestoreOutcome
}

/// A store a streaming replica can copy: which cluster it belongs to and whether it replays.
public protocol ReplicatedStore: LedgerStore {
  /// The ledger it reads and writes.
  var ledgerName: String { get }
  /// Where it lives (its URL's parts; never shown with the password).
  var location: PostgresLocation { get }
  /// The cluster's identifier: a replica has its primary's.
  func clusterIdentifier() throws -> String
  /// Whether the server is replaying another (a standby) rather than a primary.
  func isStandby() throws -> Bool
}

/// A store opened on a ledger it may have created: the creation is kept or taken back at the end.
public protocol CreatedLedgerStore: LedgerStore {
  /// Where it lives (for messages, without the password).
  var location: PostgresLocation { get }
  /// Keeps the created ledger, or drops it again (a copy that failed leaves nothing).
  func finishCreatedLedger(keep: Bool) throws
}

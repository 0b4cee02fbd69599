import ExpenseCore
import ExpenseStore

/// Every use case of the application, for every front end: the CLI's commands, the HTTP API's
/// handlers and the interactive report each parse their input, call one function here and
/// present the result.
///
/// Why one type: a use case written once means one behaviour and one set of messages in every
/// front end, and one place to test it in process (`ExpenseServiceTests`). It reads and writes
/// only through `LedgerStore`, so a second store needs no second service; it opens other stores
/// (a ledger's file, a copy's target, a replica) only through `stores`, the factory the
/// executable hands it, so it links no concrete store; and it reads the time only through
/// `clock`, so `--today` and tests pin it.
///
/// The functions are grouped by what they act on, one file each (`ExpenseService+Expenses`,
/// `+Budgets`, `+Categories`, `+Rules`, `+Imports`, `+Reports`, `+Sections`, `+Settings`,
/// `+Tokens`, `+Maintenance`, `+Export`, `+Demo`, `+Replica`).
public struct ExpenseService: Sendable {
  public let store: any LedgerStore
  public let clock: ServiceClock
  /// Where ledgers, users and tokens are kept: the store itself, except for a SQLite ledger
  /// kept in a file of its own, whose directory is the main file's.
  public let directory: any LedgerStore
  /// Whose display preferences (section states) this service reads and saves.
  public let user: String
  /// How other stores are opened (the composition root's `Stores`).
  public let stores: any StoreOpening
  /// The name of the API token this service acts through (over HTTP), which the history names
  /// beside the user; nil on the command line.
  public var token: String?

  public init(
    store: any LedgerStore, stores: any StoreOpening, clock: ServiceClock = .system,
    directory: (any LedgerStore)? = nil, user: String = DirectoryName.localUser
  ) {
    self.store = store
    self.stores = stores
    self.clock = clock
    self.directory = directory ?? store
    self.user = user
  }

  /// This service acting for `user` (whose section states it folds reports by).
  public func acting(for user: String, token: String? = nil) -> ExpenseService {
    var service = ExpenseService(store: store, stores: stores, clock: clock, directory: directory, user: user)
    service.token = token
    return service
  }

  /// What a front end means to do with the store it opens.
  public typealias Access = StoreAccess

  /// The service over the SQLite database at `path`, or over the PostgreSQL database a
  /// `postgres://` URL names (`--db` and `$EXPENSES_DB` take either). A write access first
  /// removes what a `restore` killed half-way left beside a file. (`wait` is SQLite's: a
  /// PostgreSQL writer waits for the ledger's row lock as long as the server lets it.)
  ///
  /// `ledger` (nil: the URL's `ledger=`, else `default`; given, it wins over the URL's) opens another ledger: in PostgreSQL a
  /// ledger of the same database, in SQLite the ledger's own file beside the main one
  /// (`LedgerFiles`), registered in the main file, which stays the service's `directory`.
  public static func open(
    path: String, access: Access, wait: Double = 10, clock: ServiceClock = .system, ledger: String? = nil,
    stores: any StoreOpening
  ) throws -> ExpenseService {
    let opened = try stores.open(path, access: access, wait: wait, ledger: ledger)
    return ExpenseService(store: opened.store, stores: stores, clock: clock, directory: opened.directory)
  }

  /// The service for an import that writes nothing (`--dry-run`, `--preview`): the database at
  /// `path` when it is there, else an empty one in memory with a new file's defaults. Why: a
  /// dry run said "nothing is written" and created the database (at the default path, when
  /// `--db` and `$EXPENSES_DB` were not given, so the next real import landed where the user
  /// never chose). A dry run's transaction is rolled back, so an existing file is unchanged.
  public static func openForDryRun(
    path: String, wait: Double = 10, clock: ServiceClock = .system, ledger: String? = nil,
    stores: any StoreOpening
  )
    throws -> ExpenseService
  {
    if !stores.databaseExists(at: path) {
      if let ledger, ledger != DirectoryName.defaultLedger { throw StoreError.noDatabase(path: path) }
      return ExpenseService(store: try stores.openInMemory(), stores: stores, clock: clock)
    }
    // A dry run reads (see `LedgerStore.importRows`).
    return try open(path: path, access: .read, wait: wait, clock: clock, ledger: ledger, stores: stores)
  }

  /// `path` as messages may show it: a PostgreSQL URL without its password.
  public static func shown(path: String) -> String {
    guard PostgresLocation.isURL(path) else { return path }
    return PostgresLocation(url: path)?.redacted ?? "postgres://…"
  }

  /// The ledger a `postgres://` URL's `ledger=` names, if any.
  public static func urlLedger(_ path: String) -> String? { PostgresLocation(url: path)?.ledger }

  /// Whether `path` names a PostgreSQL database rather than a SQLite file.
  public static func isServerURL(_ path: String) -> Bool { PostgresLocation.isURL(path) }

  /// This service with "today" pinned (`--today`).
  public func pinning(today: CivilDate?) -> ExpenseService {
    ExpenseService(store: store, stores: stores, clock: clock.pinning(today: today), directory: directory, user: user)
  }
}

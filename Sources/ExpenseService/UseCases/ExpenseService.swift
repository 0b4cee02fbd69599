import ExpenseCore
import ExpensePostgres
import ExpenseStore

/// Every use case of the application, for every front end: the CLI's commands, the HTTP API's
/// handlers and the interactive report each parse their input, call one function here and
/// present the result.
///
/// Why one type: a use case written once means one behaviour and one set of messages in every
/// front end, and one place to test it in process (`ExpenseServiceTests`). It reads and writes
/// only through `LedgerStore`, so a second store needs no second service; and the time only
/// through `clock`, so `--today` and tests pin it.
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

  public init(
    store: any LedgerStore, clock: ServiceClock = .system, directory: (any LedgerStore)? = nil,
    user: String = DirectoryName.localUser
  ) {
    self.store = store
    self.clock = clock
    self.directory = directory ?? store
    self.user = user
  }

  /// This service acting for `user` (whose section states it folds reports by).
  public func acting(for user: String) -> ExpenseService {
    ExpenseService(store: store, clock: clock, directory: directory, user: user)
  }

  /// What a front end means to do with the store it opens.
  public enum Access: Sendable {
    /// Reads only: no lock, nothing written, answers while another process imports.
    case read
    /// Reads and writes (a missing database is created).
    case write
  }

  /// The service over the SQLite database at `path`, or over the PostgreSQL database a
  /// `postgres://` URL names (`--db` and `$EXPENSES_DB` take either). A write access first
  /// removes what a `restore` killed half-way left beside a file. (`wait` is SQLite's: a
  /// PostgreSQL writer waits for the ledger's row lock as long as the server lets it.)
  ///
  /// `ledger` (nil: the URL's `ledger=`, else `default`; given, it wins over the URL's) opens another ledger: in PostgreSQL a
  /// ledger of the same database, in SQLite the ledger's own file beside the main one
  /// (`LedgerFiles`), registered in the main file, which stays the service's `directory`.
  public static func open(
    path: String, access: Access, wait: Double = 10, clock: ServiceClock = .system, ledger: String? = nil
  ) throws -> ExpenseService {
    if PostgresLocation.isURL(path) {
      guard var location = PostgresLocation(url: path) else {
        return ExpenseService(
          store: try PostgresStore(url: path, access: access == .write ? .write : .read), clock: clock)
      }
      if let ledger { location.ledger = ledger }
      return ExpenseService(
        store: try PostgresStore(location: location, access: access == .write ? .write : .read), clock: clock)
    }
    if access == .write { AppDatabase.removeLeftovers(besides: path) }
    let main = try AppDatabase(path: path, access: access == .write ? .write : .read, wait: wait)
    guard let ledger, ledger != DirectoryName.defaultLedger else { return ExpenseService(store: main, clock: clock) }
    guard try main.ledgerNames().contains(ledger) else { throw StoreError.noLedger(path: path, ledger: ledger) }
    let file = LedgerFiles.path(of: ledger, besides: path)
    // A registered ledger whose file is gone is reported, never silently made again empty.
    guard LedgerFiles.existing(file) != nil else { throw StoreError.noDatabase(path: file) }
    if access == .write { AppDatabase.removeLeftovers(besides: file) }
    let store = try AppDatabase(path: file, access: access == .write ? .write : .read, wait: wait)
    return ExpenseService(store: store, clock: clock, directory: main)
  }

  /// The service for an import that writes nothing (`--dry-run`, `--preview`): the database at
  /// `path` when it is there, else an empty one in memory with a new file's defaults. Why: a
  /// dry run said "nothing is written" and created the database (at the default path, when
  /// `--db` and `$EXPENSES_DB` were not given, so the next real import landed where the user
  /// never chose). A dry run's transaction is rolled back, so an existing file is unchanged.
  public static func openForDryRun(
    path: String, wait: Double = 10, clock: ServiceClock = .system, ledger: String? = nil
  )
    throws -> ExpenseService
  {
    if !PostgresLocation.isURL(path) && LedgerFiles.existing(path) == nil {
      if let ledger, ledger != DirectoryName.defaultLedger { throw StoreError.noDatabase(path: path) }
      return ExpenseService(store: try AppDatabase(), clock: clock)
    }
    // A dry run reads (see `LedgerStore.importRows`).
    return try open(path: path, access: .read, wait: wait, clock: clock, ledger: ledger)
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
    ExpenseService(store: store, clock: clock.pinning(today: today), directory: directory, user: user)
  }
}

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

  public init(store: any LedgerStore, clock: ServiceClock = .system) {
    self.store = store
    self.clock = clock
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
  public static func open(path: String, access: Access, wait: Double = 10, clock: ServiceClock = .system) throws
    -> ExpenseService
  {
    if PostgresLocation.isURL(path) {
      let store = try PostgresStore(url: path, access: access == .write ? .write : .read)
      return ExpenseService(store: store, clock: clock)
    }
    if access == .write { AppDatabase.removeLeftovers(besides: path) }
    let store = try AppDatabase(path: path, access: access == .write ? .write : .read, wait: wait)
    return ExpenseService(store: store, clock: clock)
  }

  /// `path` as messages may show it: a PostgreSQL URL without its password.
  public static func shown(path: String) -> String {
    guard PostgresLocation.isURL(path) else { return path }
    return PostgresLocation(url: path)?.redacted ?? "postgres://…"
  }

  /// Whether `path` names a PostgreSQL database rather than a SQLite file.
  public static func isServerURL(_ path: String) -> Bool { PostgresLocation.isURL(path) }

  /// This service with "today" pinned (`--today`).
  public func pinning(today: CivilDate?) -> ExpenseService {
    ExpenseService(store: store, clock: clock.pinning(today: today))
  }
}

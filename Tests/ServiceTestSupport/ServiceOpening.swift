import ExpenseService
import ExpenseStore
import ExpenseStores

/// The tests open services as the executable does, through its `Stores` factory: these
/// spellings pass it, so each test reads as the use case it calls. (A target of its own: the
/// service, server and store tests share it.)
extension ExpenseService {
  public init(
    store: any LedgerStore, clock: ServiceClock = .system, directory: (any LedgerStore)? = nil,
    user: String = DirectoryName.localUser
  ) {
    self.init(store: store, stores: Stores(), clock: clock, directory: directory, user: user)
  }

  public static func open(
    path: String, access: Access, wait: Double = 10, clock: ServiceClock = .system, ledger: String? = nil
  ) throws -> ExpenseService {
    try open(path: path, access: access, wait: wait, clock: clock, ledger: ledger, stores: Stores())
  }

  public static func openForDryRun(
    path: String, wait: Double = 10, clock: ServiceClock = .system, ledger: String? = nil
  )
    throws -> ExpenseService
  {
    try openForDryRun(path: path, wait: wait, clock: clock, ledger: ledger, stores: Stores())
  }

  public static func copyLedger(from source: String, to target: String, ledger: String?) throws -> LedgerCopySummary {
    try copyLedger(from: source, to: target, ledger: ledger, stores: Stores())
  }

  public static func restore(databaseAt path: String, from file: String, force: Bool, wait: Double) throws
    -> RestoreResult
  {
    try restore(databaseAt: path, from: file, force: force, wait: wait, stores: Stores())
  }
}

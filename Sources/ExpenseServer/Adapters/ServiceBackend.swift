import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import Synchronization

/// `ExpenseBackend` as calls of `ExpenseService`: each method is one service call on the right
/// queue, nothing more, on the ledger of the request's token (`Authenticated.token`). Per
/// ledger, writes go through one writer, one job at a time; reads through a few read-only
/// services that never wait for it (WAL: a reader sees the last commit while an import
/// writes). The service calls block, so they run on these queues, off the concurrency pool.
///
/// Why the ledger comes from the token and nowhere else: a request names no ledger, so no
/// request can name another's. The `default` ledger's services are opened at start (they also
/// answer for the directory: tokens, users); another ledger's on its first request.
public final class ServiceBackend: ExpenseBackend {
  /// One ledger's services and queue.
  final class LedgerServices: Sendable {
    let writer: ExpenseService
    let readers: [ExpenseService]
    /// Asked for the change stamp only: its own connection, so the stamp sees every commit.
    let watcher: ExpenseService
    let writeQueue: BlockingQueue
    private let nextReader = Atomic<Int>(0)
    /// For a database server: the stamp read per request, reads shared (`SharedStampReader`).
    /// nil for a SQLite file, whose stamp (`data_version`) costs no I/O and is read in place.
    let sharedStamps: SharedStampReader?

    init(writer: ExpenseService, readers: [ExpenseService], watcher: ExpenseService, label: String) {
      self.writer = writer
      self.readers = readers.isEmpty ? [writer] : readers
      self.watcher = watcher
      writeQueue = BlockingQueue(label: "expenses.writer.\(label)", serial: true)
      sharedStamps = watcher.store.filePath == nil ? SharedStampReader(read: { try watcher.changeStamp() }) : nil
    }

    var reader: ExpenseService {
      let index = nextReader.add(1, ordering: .relaxed).oldValue
      return readers[abs(index % readers.count)]
    }
  }

  let main: LedgerServices
  /// Opens another ledger's services; nil serves `default` alone.
  private let openLedger: (@Sendable (String) throws -> LedgerServices)?
  /// Other ledgers' services, open while used and a while after (`OpenLedgers`).
  let others: OpenLedgers<LedgerServices>
  let readQueue = BlockingQueue(label: "expenses.readers", serial: false)
  /// The directory's stamp for a database server, shared like the ledgers' (nil: SQLite, where
  /// the main file's `data_version` is the directory's stamp too).
  let directoryStamps: SharedStampReader?

  /// The `default` ledger's services (tests, and a store that serves one ledger).
  public convenience init(writer: ExpenseService, readers: [ExpenseService], watcher: ExpenseService) {
    self.init(main: LedgerServices(writer: writer, readers: readers, watcher: watcher, label: "default"), open: nil)
  }

  init(main: LedgerServices, open: (@Sendable (String) throws -> LedgerServices)?, openLimit: Int = defaultOpenLedgers)
  {
    self.main = main
    openLedger = open
    others = OpenLedgers(limit: openLimit)
    let watcher = main.watcher
    directoryStamps =
      watcher.store.filePath == nil ? SharedStampReader(read: { try watcher.directoryStamp() }) : nil
  }

  /// Serves the database at `path` (a SQLite file, migrated if needed, or a `postgres://`
  /// URL), opened by `stores` (the executable's factory): its `default` ledger opened now for writing plus `readerCount` read-only
  /// connections; every other ledger of its directory when a token of it first asks.
  /// At most `openLedgers` other ledgers stay open while idle (`serve --open-ledgers`).
  public convenience init(
    path: String, stores: any StoreOpening, readerCount: Int = 4, wait: Double = 10, clock: ServiceClock = .system,
    openLedgers: Int = defaultOpenLedgers
  ) throws {
    @Sendable func services(_ ledger: String?, readers: Int) throws -> LedgerServices {
      func open(_ access: ExpenseService.Access) throws -> ExpenseService {
        try ExpenseService.open(
          path: path, access: access, wait: wait, clock: clock, ledger: ledger, stores: stores)
      }
      return LedgerServices(
        writer: try open(.write), readers: try (0..<max(1, readers)).map { _ in try open(.read) },
        watcher: try open(.read), label: ledger ?? DirectoryName.defaultLedger)
    }
    self.init(
      main: try services(DirectoryName.defaultLedger, readers: readerCount),
      open: { ledger in try services(ledger, readers: min(2, readerCount)) }, openLimit: openLedgers)
  }

  /// Other ledgers kept open while idle, by default: with four connections each, 16 ledgers
  /// and `default` stay under PostgreSQL's default of 100 connections.
  public static let defaultOpenLedgers = 16

  /// Runs `body` with the services of the request's ledger (its token's, else, for
  /// `/health`, `default`'s), which stay open until it returns.
  func withServices<T>(_ body: (LedgerServices) async throws -> T) async throws -> T {
    guard let ledger = Authenticated.token?.ledger, ledger != DirectoryName.defaultLedger else {
      return try await body(main)
    }
    guard let openLedger else {
      throw APIProblem(status: .serviceUnavailable, detail: "this server answers for the ledger 'default' only")
    }
    let services = try others.lease(ledger) { try openLedger(ledger) }
    defer { others.release(ledger) }
    return try await body(services)
  }

  /// The user the request acts for (whose section states it reads and saves).
  var user: String { Authenticated.token?.user ?? DirectoryName.localUser }

  /// Runs `body` with a read service of the request's ledger, off the concurrency pool.
  func read<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let user = self.user
    return try await withServices { services in
      let reader = services.reader.acting(for: user)
      return try await readQueue.run { try body(reader) }
    }
  }

  /// Runs `body` with the writer of the request's ledger, one job at a time.
  func write<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let user = self.user
    return try await withServices { services in
      let writer = services.writer.acting(for: user)
      return try await services.writeQueue.run { try body(writer) }
    }
  }

  public func token(hash: String) async throws -> APIToken? {
    let reader = main.reader
    return try await readQueue.run { try reader.token(hash: hash) }
  }

  public func directoryStamp() async throws -> Int64 {
    guard let directoryStamps else { return try main.watcher.directoryStamp() }
    return try await directoryStamps.stamp()
  }

  public func currentStamp() async throws -> Int64 {
    try await withServices { services in
      guard let shared = services.sharedStamps else { return try services.watcher.changeStamp() }
      return try await shared.stamp()
    }
  }

  /// Which ledger and whose preferences the request's answers are for (report cache keys).
  public func audience() -> String {
    "\(Authenticated.token?.ledger ?? DirectoryName.defaultLedger)/\(user)"
  }
  public func revision() async throws -> Int64 { try await read { try $0.revision() } }
  public func schemaVersion() async throws -> Int { try await read { $0.schemaVersion } }

  public func reportJSON(month: Month, today: CivilDate) async throws -> String {
    try await read { try $0.reportJSON(month: month, today: today) }
  }

  public func reportPage(month: Month, today: CivilDate) async throws -> String {
    try await read { try $0.reportPage(month: month, today: today, script: PageRoutes.scriptPath) }
  }

  public func sections() async throws -> SavedSections { try await read { try $0.savedSections() } }

  public func updateSections(ifMatch: String?, _ change: SectionChange) async throws -> SavedSections {
    try await write { service in
      try service.updateSections(change) { current in
        if let ifMatch, ifMatch != "*", ifMatch != current.tag {
          throw APIProblem(
            status: .preconditionFailed,
            detail: "the sections changed since \(ifMatch) (now \(current.tag)); read them again and retry")
        }
      }
    }
  }

  public func imports() async throws -> [ImportRecord] { try await read { try $0.imports() } }
  public func removeImport(id: Int64) async throws -> Int { try await write { try $0.removeImport(id: id) } }

  public func importFile(path: String, request: UploadImport) async throws -> ImportResult {
    // A preview writes nothing: on a read connection, never queued behind the writer.
    if request.preview { return try await read { try $0.importUpload(path: path, request) } }
    return try await write { try $0.importUpload(path: path, request) }
  }

  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) async throws
    -> ExpensePage
  {
    try await read { try $0.expensePage(month: month, category: category, after: cursor, limit: limit) }
  }

  public func expense(id: Int64) async throws -> Expense? { try await read { try $0.store.expense(id: id) } }

  public func editExpense(id: Int64, _ change: ExpenseEdit) async throws -> Expense {
    try await write { try $0.editExpense(id: id, change) }
  }

  public func deleteExpense(id: Int64, wholeSplit: Bool) async throws {
    _ = try await write { try $0.deleteExpenses(ids: [id], wholeSplits: wholeSplit) }
  }

  public func budgets() async throws -> [Budget] { try await read { try $0.budgets() } }
  public func defaultCurrency() async throws -> Currency { try await read { try $0.defaultCurrency() } }
  public func saveBudget(_ budget: Budget) async throws -> Budget { try await write { try $0.saveBudget(budget) } }
  public func setBudget(category: String, amountMinor: Int64, month: Month?, currency: Currency?) async throws
    -> Budget
  {
    try await write { try $0.setBudget(category: category, amountMinor: amountMinor, month: month, currency: currency) }
  }

  public func removeBudget(category: String, month: Month?, currency: Currency?) async throws {
    try await write { try $0.removeBudget(category: category, month: month, currency: currency) }
  }

  public func categories() async throws -> [CategorySummary] { try await read { try $0.categories() } }

  public func setCategoryKind(_ name: String, kind: CategoryKind) async throws {
    try await write { try $0.setCategoryKind(name, kind: kind) }
  }

  public func forgetCategory(_ name: String) async throws -> Bool { try await write { try $0.forgetCategory(name) } }

  public func rules() async throws -> [CategoryRule] { try await read { try $0.rules() } }

  public func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) async throws
    -> CategoryRule
  {
    try await write { try $0.putRule(id: id, pattern: pattern, category: category, field: field) }
  }

  public func removeRule(id: Int64) async throws { try await write { try $0.removeRule(id: id) } }

  public func importFileOnce(
    path: String, request: UploadImport, token: String, key: String, requestHash: String,
    respond: @escaping @Sendable (ImportResult) throws -> IdempotentResponse
  ) async throws -> IdempotentOutcome {
    try await write { service in
      try service.runOnce(token: token, key: key, requestHash: requestHash) {
        try respond(try service.importUpload(path: path, request))
      }
    }
  }

  public func idempotentResponse(token: String, key: String) async throws -> IdempotentResponse? {
    // From the writer: a replay right after the first answer must see it.
    try await write { try $0.idempotentResponse(token: token, key: key) }
  }

  public func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String) async throws {
    try await write { try $0.saveIdempotentResponse(response, token: token, key: key) }
  }
}

/// The backend `expenses serve` runs on one SQLite file (the name tests and older callers use).
public typealias SQLiteBackend = ServiceBackend

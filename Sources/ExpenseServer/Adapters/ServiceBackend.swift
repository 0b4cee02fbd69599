import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import Synchronization

/// `ExpenseBackend` as calls of `ExpenseService`: each method is one service call on the right
/// queue, nothing more. Writes go through one writer, one job at a time; reads through a few
/// read-only services that never wait for it (WAL: a reader sees the last commit while an
/// import writes). The service calls block, so they run on these queues, off the concurrency pool.
public final class ServiceBackend: ExpenseBackend {
  let writer: ExpenseService
  let readers: [ExpenseService]
  /// Asked for the change stamp only: its own connection, so the stamp sees every commit.
  let watcher: ExpenseService
  let writeQueue = BlockingQueue(label: "expenses.writer", serial: true)
  let readQueue = BlockingQueue(label: "expenses.readers", serial: false)
  private let nextReader = Atomic<Int>(0)
  /// For a database server: the stamp read per request, reads shared (`SharedStampReader`).
  /// nil for a SQLite file, whose stamp (`data_version`) costs no I/O and is read in place.
  let sharedStamps: SharedStampReader?

  public init(writer: ExpenseService, readers: [ExpenseService], watcher: ExpenseService) {
    self.writer = writer
    self.readers = readers.isEmpty ? [writer] : readers
    self.watcher = watcher
    sharedStamps = watcher.store.filePath == nil ? SharedStampReader(read: { try watcher.changeStamp() }) : nil
  }

  /// Serves the SQLite file at `path`: opened for writing (migrated if needed), plus
  /// `readerCount` read-only connections.
  public convenience init(path: String, readerCount: Int = 4, wait: Double = 10, clock: ServiceClock = .system) throws {
    self.init(
      writer: try ExpenseService.open(path: path, access: .write, wait: wait, clock: clock),
      readers: try (0..<max(1, readerCount)).map { _ in
        try ExpenseService.open(path: path, access: .read, wait: wait, clock: clock)
      },
      watcher: try ExpenseService.open(path: path, access: .read, wait: wait, clock: clock))
  }

  /// Runs `body` with a read service, off the concurrency pool.
  func read<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let index = nextReader.add(1, ordering: .relaxed).oldValue
    let reader = readers[abs(index % readers.count)]
    return try await readQueue.run { try body(reader) }
  }

  /// Runs `body` with the writer, one job at a time.
  func write<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let writer = self.writer
    return try await writeQueue.run { try body(writer) }
  }

  public func token(hash: String) async throws -> APIToken? { try await read { try $0.token(hash: hash) } }
  public func changeStamp() throws -> Int64 { try watcher.changeStamp() }

  public func currentStamp() async throws -> Int64 {
    guard let sharedStamps else { return try watcher.changeStamp() }
    return try await sharedStamps.stamp()
  }
  public func revision() async throws -> Int64 { try await read { try $0.revision() } }

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
    try await write { try $0.importUpload(path: path, request) }
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

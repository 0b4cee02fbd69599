import ExpenseCore
import ExpenseRender
import ExpenseStore
import Foundation
import Synchronization

/// `ExpenseBackend` over the SQLite file: one writer connection, used by one job at a time,
/// and a few read-only connections that never wait for it (WAL: a reader sees the last commit
/// while an import writes).
public final class SQLiteBackend: ExpenseBackend {
  let writer: AppDatabase
  let readers: [AppDatabase]
  /// Asked for `PRAGMA data_version` only: its own connection, so the stamp sees every commit.
  let watcher: AppDatabase
  let writeQueue = BlockingQueue(label: "expenses.writer", serial: true)
  let readQueue = BlockingQueue(label: "expenses.readers", serial: false)
  private let nextReader = Atomic<Int>(0)
  let clock: ServerClock

  /// Opens `path` for writing (migrating it if needed) and `readerCount` read-only connections.
  public init(path: String, readerCount: Int = 4, wait: Double = 10, clock: ServerClock = .system) throws {
    writer = try AppDatabase(path: path, access: .write, wait: wait)
    readers = try (0..<max(1, readerCount)).map { _ in try AppDatabase(path: path, access: .read, wait: wait) }
    watcher = try AppDatabase(path: path, access: .read, wait: wait)
    self.clock = clock
  }

  /// Runs `body` on a read connection, off the concurrency pool.
  func read<T: Sendable>(_ body: @escaping @Sendable (AppDatabase) throws -> T) async throws -> T {
    let index = nextReader.add(1, ordering: .relaxed).oldValue
    let reader = readers[abs(index % readers.count)]
    return try await readQueue.run { try body(reader) }
  }

  /// Runs `body` with the writer, one job at a time.
  func write<T: Sendable>(_ body: @escaping @Sendable (AppDatabase) throws -> T) async throws -> T {
    let writer = self.writer
    return try await writeQueue.run { try body(writer) }
  }

  public func token(hash: String) async throws -> APIToken? { try await read { try $0.token(hash: hash) } }
  public func changeStamp() throws -> Int64 { try watcher.dataVersion() }
  public func revision() async throws -> Int64 { try await read { try $0.revision() } }

  public func reportJSON(month: Month, today: CivilDate) async throws -> String {
    try await read { try ServerReports.json(database: $0, month: month, today: today) }
  }

  public func reportPage(month: Month, today: CivilDate) async throws -> String {
    try await read { try ServerReports.page(database: $0, month: month, today: today) }
  }

  public func sections() async throws -> SavedSections { try await read { try ServerSections.saved($0) } }

  public func updateSections(ifMatch: String?, _ change: SectionChange) async throws -> SavedSections {
    try await write { db in
      let current = try ServerSections.saved(db)
      if let ifMatch, ifMatch != "*", ifMatch != current.tag {
        throw APIProblem(
          status: .preconditionFailed,
          detail: "the sections changed since \(ifMatch) (now \(current.tag)); read them again and retry")
      }
      try ServerSections.apply(change, database: db)
      return try ServerSections.saved(db)
    }
  }

  public func imports() async throws -> [ImportRecord] { try await read { try $0.imports() } }
  public func removeImport(id: Int64) async throws -> Int { try await write { try $0.removeImport(id: id) } }

  public func importFile(path: String, request: UploadImport) async throws -> ImportResult {
    let clock = self.clock
    return try await write { try ServerImports.run(database: $0, path: path, upload: request, now: clock.now()) }
  }

  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) async throws
    -> ExpensePage
  {
    try await read { try $0.expensePage(month: month, category: category, after: cursor, limit: limit) }
  }

  public func expense(id: Int64) async throws -> Expense? { try await read { try $0.expense(id: id) } }

  public func editExpense(id: Int64, _ change: ExpenseEdit) async throws -> Expense {
    try await write { try $0.editExpense(id: id, change) }
  }

  public func deleteExpense(id: Int64) async throws { _ = try await write { try $0.deleteExpenses(ids: [id]) } }

  public func budgets() async throws -> [Budget] { try await read { try $0.budgets() } }
  public func defaultCurrency() async throws -> Currency { try await read { try $0.defaultCurrency() } }

  public func saveBudget(_ budget: Budget) async throws -> Budget {
    try await write { db in
      try db.saveBudget(budget)
      // Stored under the category's known spelling: answer with what was stored.
      let key = CategoryName.key(budget.category)
      return try db.budgets().first {
        CategoryName.key($0.category) == key && $0.month == budget.month && $0.amount.currency == budget.amount.currency
      } ?? budget
    }
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

  public func idempotentResponse(token: String, key: String) async throws -> IdempotentResponse? {
    // From the writer: a replay right after the first answer must see it.
    try await write { try $0.idempotentResponse(token: token, key: key) }
  }

  public func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String) async throws {
    let time = clock.timestamp
    try await write { try $0.saveIdempotentResponse(response, token: token, key: key, at: time) }
  }
}

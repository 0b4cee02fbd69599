import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import Synchronization

/// `ExpenseBackend` over one database: each runner runs a service call on the right queue,
/// nothing more, on the ledger of the request's token (`Authenticated.token`). Per
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
    /// For a database server whose stamps are not read together (`ledgerStamps`): the stamp
    /// read per request, reads shared (`SharedStampReader`), made on first use. Never made for
    /// a SQLite file, whose stamp (`data_version`) costs no I/O and is read in place.
    private let stampReader = Mutex<SharedStampReader?>(nil)

    init(writer: ExpenseService, readers: [ExpenseService], watcher: ExpenseService, label: String) {
      self.writer = writer
      self.readers = readers.isEmpty ? [writer] : readers
      self.watcher = watcher
      writeQueue = BlockingQueue(label: "expenses.writer.\(label)", serial: true)
    }

    /// The ledger's change stamp, read after this call.
    func stamp() async throws -> Int64 {
      let watcher = self.watcher
      guard watcher.store.filePath == nil else { return try watcher.changeStamp() }
      let shared = stampReader.withLock { reader in
        if let reader { return reader }
        let made = SharedStampReader(read: { try watcher.changeStamp() })
        reader = made
        return made
      }
      return try await shared.stamp()
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
  /// Every ledger's stamp and the directory's in one shared read, when the store reads them so
  /// (a pooled PostgreSQL store); then `directoryStamps` and the ledgers' own readers are not
  /// asked.
  let ledgerStamps: SharedLedgerStamps?

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
    ledgerStamps =
      (try? watcher.stamps(of: [])) == nil
      ? nil
      : SharedLedgerStamps(
        read: { ledgers in
          guard let stamps = try watcher.stamps(of: ledgers) else { throw StoreError.noDatabase(path: "the database") }
          return stamps
        },
        missing: { ledger in StoreError.noLedger(path: "the database", ledger: ledger) })
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

  /// Other ledgers kept open while idle, by default, on SQLite: each holds its file and its
  /// connections (file descriptors).
  public static let defaultOpenLedgers = 16

  /// The same on PostgreSQL, where an idle ledger holds no connection (they are the pool's,
  /// `defaultPoolSize`), only its services' objects and its cached reports (which the report
  /// cache bounds).
  public static let defaultPooledOpenLedgers = 10_000

  /// Connections a server shares among all its ledgers on PostgreSQL (`serve --pool-size`):
  /// enough to keep two cores busy with calls that wait on the server, and six servers within
  /// PostgreSQL's default `max_connections` of 100.
  public static let defaultPoolSize = 16

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
  public func read<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let user = self.user
    return try await withServices { services in
      let reader = services.reader.acting(for: user)
      return try await readQueue.run { try body(reader) }
    }
  }

  /// Runs `body` with the writer of the request's ledger, one job at a time.
  public func write<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let user = self.user
    return try await withServices { services in
      let writer = services.writer.acting(for: user, token: Authenticated.token?.name)
      return try await services.writeQueue.run { try body(writer) }
    }
  }

  /// No replica: the primary's readers answer.
  public func fromReplica<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    try await read(body)
  }

  public func token(hash: String) async throws -> APIToken? {
    let reader = main.reader
    return try await readQueue.run { try reader.token(hash: hash) }
  }

  public func directoryStamp() async throws -> Int64 {
    if let ledgerStamps { return try await ledgerStamps.stamp(of: nil) }
    guard let directoryStamps else { return try main.watcher.directoryStamp() }
    return try await directoryStamps.stamp()
  }

  public func currentStamp() async throws -> Int64 {
    if let ledgerStamps {
      return try await ledgerStamps.stamp(of: Authenticated.token?.ledger ?? DirectoryName.defaultLedger)
    }
    return try await withServices { services in try await services.stamp() }
  }

  /// Which ledger and whose preferences the request's answers are for (report cache keys).
  public func audience() -> String {
    "\(Authenticated.token?.ledger ?? DirectoryName.defaultLedger)/\(user)"
  }
}

/// The backend `expenses serve` runs on one SQLite file (the name tests and older callers use).
public typealias SQLiteBackend = ServiceBackend

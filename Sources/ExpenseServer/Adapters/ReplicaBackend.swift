import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import Logging
import Synchronization

/// `ExpenseBackend` over a PostgreSQL primary (`ServiceBackend`) and a streaming replica of it
/// (`expenses serve --read-replica`): what handlers run `fromReplica` (the report, JSON and
/// page, and the listings: expenses, one expense, budgets, categories, rules, imports) is read
/// from the replica when it is fresh enough for the request; everything else, and those too
/// when it is not, from the primary.
///
/// Why by revision: a replica replays the primary's commits late. The request's stamp is the
/// ledger's revision read from the primary after the request arrived (`currentStamp()`, the
/// request's ledger's), so it counts the client's own last write and every commit anyone saw
/// acknowledged before. Every write to what the API serves raises the revision in its own
/// transaction, under the ledger's row lock, so the revisions follow the commit order and a
/// replica showing revision R has replayed every commit up to R. The read runs in one
/// `REPEATABLE READ` read-only transaction on the replica (`consistently`) that first reads the
/// replica's revision: at least the stamp, and the answer comes from that snapshot, which holds
/// a whole import or none of it; lower, and the primary answers. A replica that fails (down,
/// closed, a query cancelled by replay) never fails a request: the primary answers, and the
/// connection is reopened in the background (`ReplicaConnections`).
public final class ReplicaBackend: ExpenseBackend {
  let primary: ServiceBackend
  /// The `default` ledger's replica connections, opened at start.
  let replica: ReplicaConnections
  let queue = BlockingQueue(label: "expenses.replica", serial: false)
  /// Where the reads went (`/metrics`: `expenses_replica_reads_total`).
  public let reads = ReplicaReads()
  /// Seconds a read waits for the replica before the primary answers instead.
  let readTimeout: Double
  let target: ReplicaTarget
  let retryInterval: Double
  let logger: Logger
  let clock: ServiceClock
  /// Other ledgers' replica connections, opened on a ledger's first read (a ledger the replica
  /// has not replayed yet is tried again after a while: `notBefore`), at most `openLedgers`
  /// kept open while idle (`OpenLedgers`). A bound of its own: each holds two connections to
  /// the replica, where the primary's ledgers share its pool.
  private let others: OpenLedgers<OtherLedger>

  enum OtherLedger {
    case open(ReplicaConnections)
    case notBefore(Date)
  }

  /// Reads from the replica at `url` (`option` names where it came from, for messages), with
  /// `connections` connections. Throws `ReplicaError` for a URL that cannot be a replica of the
  /// primary's ledger; a replica that cannot be reached yet is logged and retried every
  /// `retryInterval` seconds while the primary serves. A read the replica has not answered
  /// within `readTimeout` seconds is answered by the primary. `openLedgers` (nil: as many as
  /// the primary) bounds the other ledgers whose replica connections stay open while idle.
  public init(
    primary: ServiceBackend, replica url: String, option: String = "--read-replica", connections: Int = 4,
    openLedgers: Int? = nil, retryInterval: Double = 2, readTimeout: Double = 5, logger: Logger,
    clock: ServiceClock = .system
  ) throws {
    self.primary = primary
    self.readTimeout = readTimeout
    self.retryInterval = retryInterval
    self.logger = logger
    self.clock = clock
    others = OpenLedgers(limit: openLedgers ?? primary.others.limit)
    target = try primary.main.watcher.replicaTarget(url: url, option: option)
    replica = try ReplicaConnections(
      target: target, count: connections, retryInterval: retryInterval, logger: logger, clock: clock)
    logger.info("reports and listings are read from replica \(target.shown) whenever it has caught up")
  }

  /// The replica connections of the request's ledger (its token's; `default` without one), or
  /// nil while they cannot be had. Each ledger reads its own ledger on the replica, as on the
  /// primary: the replica's sessions are narrowed to it like the primary's.
  func connections() async -> ReplicaConnections? {
    guard let ledger = Authenticated.token?.ledger, ledger != DirectoryName.defaultLedger else { return replica }
    switch others.peek(ledger) {
    case .open(let connections): return connections
    case .notBefore(let time) where clock.now() < time: return nil
    default: break
    }
    let target = ExpenseService.replicaTarget(self.target, ledger: ledger)
    let (retryInterval, logger, clock) = (self.retryInterval, self.logger, self.clock)
    let opened = try? await queue.run {
      try ReplicaConnections(target: target, count: 2, retryInterval: retryInterval, logger: logger, clock: clock)
    }
    if case .open(let first) = others.peek(ledger) { return first }
    others.store(opened.map { .open($0) } ?? .notBefore(clock.now().addingTimeInterval(30)), for: ledger)
    return opened
  }

  /// What the replica read gives, or that it has not replayed far enough.
  enum Fresh<T: Sendable>: Sendable {
    case answer(T)
    case behind
  }

  /// `body` on the replica if it has replayed this request's stamp, else on the primary's readers.
  public func fromReplica<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    let fallback = { try await self.primary.read(body) }
    // The request's ledger's stamp from the primary, read after the request arrived.
    let stamp = try await primary.currentStamp()
    let user = primary.user
    guard let replica = await connections(), let (ledgerService, generation) = replica.take() else {
      reads.count(.down)
      return try await fallback()
    }
    let fresh: Fresh<T>
    do {
      fresh = try await Self.run(on: queue.queue, within: readTimeout) {
        let service = ledgerService.acting(for: user)
        return try service.store.consistently {
          guard try service.revision() >= stamp else { return .behind }
          return .answer(try body(service))
        }
      }
    } catch let error as ReplicaTimeout {
      // No answer at all: a replica cut off by the network or frozen. Its connections are
      // dropped (each would hang the same way) and reopened in the background.
      replica.failed(error, generation: generation)
      reads.count(.failed)
      return try await fallback()
    } catch let error as any ClassifiedError where Self.answers(error.kind) {
      // The request's own error (a bad cursor, an unknown id), from data as fresh as the
      // primary's: the same answer the primary would give.
      reads.count(.caughtUp)
      throw error
    } catch {
      // A recovery conflict cancels one query and leaves the connection usable; anything
      // else (closed, unreachable) drops it.
      if (error as? any ClassifiedError)?.kind != .busy { replica.failed(error, generation: generation) }
      reads.count(.failed)
      return try await fallback()
    }
    switch fresh {
    case .answer(let value):
      reads.count(.caughtUp)
      return value
    case .behind:
      reads.count(.behind)
      return try await fallback()
    }
  }

  /// `body` on `queue`, or `ReplicaTimeout` once `seconds` have passed without its answer (the
  /// body goes on, blocked, until its connection fails; nobody waits for it).
  static func run<T: Sendable>(
    on queue: DispatchQueue, within seconds: Double, _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    let once = Once()
    return try await withCheckedThrowingContinuation { continuation in
      queue.async {
        let result = Result(catching: body)
        if once.claim() { continuation.resume(with: result) }
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        if once.claim() { continuation.resume(throwing: ReplicaTimeout(seconds: seconds)) }
      }
    }
  }

  /// Whether an error of `kind` is the request's answer rather than the replica's failure.
  static func answers(_ kind: ErrorKind) -> Bool {
    switch kind {
    case .usage, .invalidValue, .notFound, .conflict, .badData, .noInput, .cannotCreate: return true
    case .damagedDatabase, .noDatabase, .unavailable, .internal, .io, .databaseIO, .busy: return false
    }
  }

  // MARK: Always the primary's: stamps, tokens, every other read, writes

  public func read<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    try await primary.read(body)
  }

  public func write<T: Sendable>(_ body: @escaping @Sendable (ExpenseService) throws -> T) async throws -> T {
    try await primary.write(body)
  }

  public func token(hash: String) async throws -> APIToken? { try await primary.token(hash: hash) }
  public func directoryStamp() async throws -> Int64 { try await primary.directoryStamp() }
  public func audience() -> String { primary.audience() }
  public func currentStamp() async throws -> Int64 { try await primary.currentStamp() }
}

/// The replica did not answer a read in time.
struct ReplicaTimeout: Error, CustomStringConvertible {
  var seconds: Double
  var description: String { "no answer within \(seconds) seconds" }
}

/// Lets the first of two racing callbacks through (the answer or the timer).
final class Once: Sendable {
  private let claimed = Mutex(false)

  func claim() -> Bool {
    claimed.withLock { claimed in
      defer { claimed = true }
      return !claimed
    }
  }
}

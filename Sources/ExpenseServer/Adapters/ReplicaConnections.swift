import Dispatch
import ExpenseCore
import ExpenseService
import ExpenseStore
import Logging
import Synchronization

/// The read replica's connections: each an open read-only service, or nil while it is down.
/// When one fails, all are dropped and reopened in the background, so a request never waits
/// for a reconnect: while none is open, reads go to the primary.
///
/// Logged once per outage, not per request: the first failure as a warning, the recovery as a
/// notice; the replica is named by its redacted URL and errors carry no query or value.
final class ReplicaConnections: Sendable {
  private struct State {
    var services: [ExpenseService?]
    var next = 0
    var reconnecting = false
    /// Raised when the connections are dropped: a failure of an older one (a read that was
    /// still running) must not drop the new ones.
    var generation = 0
    /// A failure was logged and the recovery not yet.
    var outage = false
  }

  private let state: Mutex<State>
  private let target: ReplicaTarget
  private let clock: ServiceClock
  private let retryInterval: Double
  private let logger: Logger
  private let queue = DispatchQueue(label: "expenses.replica.reconnect")

  /// Opens `count` connections. Throws what shows a wrong URL (`ReplicaError`: another
  /// cluster, the ledger missing there); any other failure (unreachable, starting up) is
  /// logged and the connections are opened in the background.
  init(target: ReplicaTarget, count: Int, retryInterval: Double, logger: Logger, clock: ServiceClock) throws {
    self.target = target
    self.clock = clock
    self.retryInterval = retryInterval
    self.logger = logger
    var services: [ExpenseService?] = Array(repeating: nil, count: max(1, count))
    var failure: (any Error)?
    for index in services.indices {
      do {
        services[index] = try ExpenseService.openReplica(target, clock: clock)
      } catch let error as ReplicaError {
        throw error
      } catch {
        failure = error
        break
      }
    }
    state = Mutex(State(services: services))
    if let failure { self.failed(failure, generation: 0) }
  }

  /// An open connection, in turn, and its generation for `failed`; nil while none is open.
  func take() -> (service: ExpenseService, generation: Int)? {
    state.withLock { state in
      let count = state.services.count
      for step in 0..<count {
        let index = (state.next + step) % count
        if let service = state.services[index] {
          state.next = (index + 1) % count
          return (service, state.generation)
        }
      }
      return nil
    }
  }

  /// Drops every connection (one failed with `error`) and reopens them in the background.
  /// Why all: they lead to one server, and one closed by a restart or a failover means the
  /// others are too; each kept would fail a read of its own (and log the outage once more)
  /// before being reopened. A connection of an older generation was dropped already.
  func failed(_ error: any Error, generation: Int) {
    let first = state.withLock { state in
      guard generation == state.generation else { return false }
      state.generation += 1
      for index in state.services.indices { state.services[index] = nil }
      defer { state.outage = true }
      return !state.outage
    }
    if first {
      logger.warning(
        "read replica \(target.shown) failed: \(LogText.clean(String(describing: error))); reads go to the primary until it answers"
      )
    }
    scheduleReconnect()
  }

  /// Whether every connection is open.
  var allOpen: Bool { state.withLock { state in state.services.allSatisfy { $0 != nil } } }

  private func scheduleReconnect() {
    let start = state.withLock { state in
      if state.reconnecting { return false }
      state.reconnecting = true
      return true
    }
    if start { queue.asyncAfter(deadline: .now() + retryInterval) { self.reconnect() } }
  }

  /// Reopens every dropped connection; tries again later while one cannot be opened.
  private func reconnect() {
    let missing = state.withLock { state in state.services.indices.filter { state.services[$0] == nil } }
    var lastError: (any Error)?
    for index in missing {
      do {
        let service = try ExpenseService.openReplica(target, clock: clock)
        state.withLock { $0.services[index] = service }
      } catch {
        lastError = error
        break
      }
    }
    let recovered = state.withLock { state in
      state.reconnecting = false
      guard lastError == nil, state.services.allSatisfy({ $0 != nil }) else { return false }
      defer { state.outage = false }
      return state.outage
    }
    if recovered {
      logger.notice("read replica \(target.shown) answers again; reads go to it when it has caught up")
    } else if lastError != nil || !allOpen {
      scheduleReconnect()
    }
  }
}

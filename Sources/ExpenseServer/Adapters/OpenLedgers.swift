import Dispatch
import Synchronization

/// The ledgers (other than `default`) whose connections a server holds open: at most `limit`
/// of them, the least recently used idle one closed when another is opened.
///
/// Why a bound: every open ledger holds its own connections (a writer, readers, a watcher;
/// on a replica two more), because each session is narrowed to one ledger. A server that
/// kept every ledger it had ever served open would, at a few dozen ledgers, take every
/// connection a PostgreSQL server allows (100 by default) and every file descriptor of a
/// process, and then fail requests of every ledger. Bounded, it serves any number of
/// ledgers; a ledger reopened after a while pays its connections' start again.
///
/// Why leases: a ledger is never closed under a request that uses it. `lease` marks it in
/// use until `release`; only idle ledgers are closed. When every open ledger is busy, one
/// more is opened beyond the limit and the count falls back as they go idle.
final class OpenLedgers<Value: Sendable>: Sendable {
  private struct Entry {
    var value: Value
    var lastUse: UInt64
    var inUse: Int
  }

  private struct State {
    var entries: [String: Entry] = [:]
    var tick: UInt64 = 0
  }

  private let state = Mutex(State())
  let limit: Int
  /// Where closed ledgers' connections are let go: closing a connection waits for its
  /// server, which a request must not.
  private let closer = DispatchQueue(label: "expenses.ledgers.close")

  init(limit: Int) { self.limit = max(1, limit) }

  /// The open value of `ledger`, opened with `open` (outside the lock) when it is not;
  /// in use until `release(ledger)`.
  func lease(_ ledger: String, open: () throws -> Value) throws -> Value {
    if let value = take(ledger) { return value }
    let opened = try open()
    let (value, closed) = state.withLock { state -> (Value, [Value]) in
      state.tick &+= 1
      if var first = state.entries[ledger] {
        // Opened twice by a race: the first stays, this one is closed.
        first.inUse += 1
        first.lastUse = state.tick
        state.entries[ledger] = first
        return (first.value, [opened])
      }
      state.entries[ledger] = Entry(value: opened, lastUse: state.tick, inUse: 1)
      return (opened, Self.evict(&state, limit: limit))
    }
    close(closed)
    return value
  }

  /// The open value of `ledger` without a lease (for values that need none, such as the
  /// replica's connections, whose services outlive their eviction while a read holds them).
  func peek(_ ledger: String) -> Value? {
    state.withLock { state in
      state.tick &+= 1
      state.entries[ledger]?.lastUse = state.tick
      return state.entries[ledger]?.value
    }
  }

  /// Keeps `value` for `ledger` (replacing what was there) without a lease.
  func store(_ value: Value, for ledger: String) {
    let closed = state.withLock { state -> [Value] in
      state.tick &+= 1
      let replaced = state.entries[ledger].map { [$0.value] } ?? []
      state.entries[ledger] = Entry(value: value, lastUse: state.tick, inUse: 0)
      return replaced + Self.evict(&state, limit: limit)
    }
    close(closed)
  }

  /// Ends a lease of `ledger`.
  func release(_ ledger: String) {
    let closed = state.withLock { state -> [Value] in
      guard var entry = state.entries[ledger] else { return [] }
      entry.inUse = max(0, entry.inUse - 1)
      state.entries[ledger] = entry
      return Self.evict(&state, limit: limit)
    }
    close(closed)
  }

  /// How many ledgers are open (tests, metrics).
  var count: Int { state.withLock { $0.entries.count } }

  /// Whether `ledger` is open.
  func isOpen(_ ledger: String) -> Bool { state.withLock { $0.entries[ledger] != nil } }

  private func take(_ ledger: String) -> Value? {
    state.withLock { state in
      guard var entry = state.entries[ledger] else { return nil }
      state.tick &+= 1
      entry.inUse += 1
      entry.lastUse = state.tick
      state.entries[ledger] = entry
      return entry.value
    }
  }

  /// Removes the least recently used idle entries while more than `limit` are open.
  private static func evict(_ state: inout State, limit: Int) -> [Value] {
    var closed: [Value] = []
    while state.entries.count > limit {
      guard let oldest = state.entries.filter({ $0.value.inUse == 0 }).min(by: { $0.value.lastUse < $1.value.lastUse })
      else { break }
      closed.append(oldest.value.value)
      state.entries[oldest.key] = nil
    }
    return closed
  }

  private func close(_ values: [Value]) {
    guard !values.isEmpty else { return }
    closer.async { withExtendedLifetime(values) {} }
  }
}

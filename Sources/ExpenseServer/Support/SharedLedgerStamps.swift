import Dispatch
import ExpenseStore
import Synchronization

/// The change stamps of every ledger a server answers for, and of its directory, read for
/// each request that asks, with ONE read shared by all the requests that ask at the same
/// moment, whatever their ledgers (`LedgerStore.stamps(of:)`: one statement on PostgreSQL).
///
/// Why: `SharedStampReader` shares a read among the requests of one ledger. With a thousand
/// households, two requests rarely share a ledger, so each paid a read of its own (and a
/// narrowing of its pooled connection to that ledger first). Here a round reads the stamps of
/// all the ledgers asked for while the previous round ran, and the directory's with them.
///
/// The promise is `SharedStampReader`'s: a request waits for a read that STARTS after it
/// asked, never one already under way, so no stamp is older than its request.
final class SharedLedgerStamps: Sendable {
  private struct State {
    var reading = false
    /// By ledger name; nil: the directory's stamp.
    var waiting: [(ledger: String?, continuation: CheckedContinuation<Int64, any Error>)] = []
  }

  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "expenses.stamps")
  private let read: @Sendable ([String]) throws -> LedgerStamps
  /// What a ledger missing from a read is (it was removed meanwhile).
  private let missing: @Sendable (String) -> any Error

  /// `read` blocks while it asks the database; it runs on a queue of its own.
  init(
    read: @escaping @Sendable ([String]) throws -> LedgerStamps, missing: @escaping @Sendable (String) -> any Error
  ) {
    self.read = read
    self.missing = missing
  }

  /// The stamp of `ledger` (nil: the directory's) from a read that started after this call.
  func stamp(of ledger: String?) async throws -> Int64 {
    try await withCheckedThrowingContinuation { continuation in
      let start = state.withLock { state in
        state.waiting.append((ledger, continuation))
        if state.reading { return false }
        state.reading = true
        return true
      }
      if start { queue.async { self.readForWaiting() } }
    }
  }

  /// Reads for everyone waiting, then for whoever came during that read, until nobody waits.
  private func readForWaiting() {
    while true {
      let batch = state.withLock { state in
        let batch = state.waiting
        state.waiting = []
        if batch.isEmpty { state.reading = false }
        return batch
      }
      if batch.isEmpty { return }
      let ledgers = Array(Set(batch.compactMap(\.ledger))).sorted()
      switch Result(catching: { try read(ledgers) }) {
      case .success(let stamps):
        for (ledger, continuation) in batch {
          guard let ledger else {
            continuation.resume(returning: stamps.directory)
            continue
          }
          if let stamp = stamps.ledgers[ledger] {
            continuation.resume(returning: stamp)
          } else {
            continuation.resume(throwing: missing(ledger))
          }
        }
      case .failure(let error):
        for (_, continuation) in batch { continuation.resume(throwing: error) }
      }
    }
  }
}

import ExpenseStore

/// The change stamp of a database server (PostgreSQL's ledger revision), read for every request
/// that asks, with reads shared among the requests that ask at the same moment.
///
/// Why per request: a report or token cached by this process is only as fresh as the stamp it
/// is checked against, and a commit by another server or the CLI leaves no trace here. A
/// stamp pushed by `LISTEN/NOTIFY` arrives after the writer's `COMMIT` has been acknowledged,
/// so a client that writes on one server and reads on another at once could be answered from
/// the stale entry; a stamp read after the request arrived cannot be older than any commit the
/// client has seen. docs/scaling.md has the measurements (one primary-key read, tens of
/// microseconds).
///
/// Why shared: the reads go through one connection, one at a time. A request waits for a read
/// that STARTS after it asked (never one already under way, which might not see a commit the
/// client saw just before asking), and every request that asked while the previous read ran
/// shares the next one. So under load there is one read per round trip, not one per request,
/// and still no answer is older than its request.
///
/// The sharing itself is `SharedLedgerStamps`'s, asked for one stamp.
final class SharedStampReader: Sendable {
  private let shared: SharedLedgerStamps

  /// `read` blocks while it asks the database; it runs on a queue of its own.
  init(read: @escaping @Sendable () throws -> Int64) {
    shared = SharedLedgerStamps(
      read: { _ in LedgerStamps(directory: try read(), ledgers: [:]) }, missing: { _ in CancellationError() })
  }

  /// The stamp from a read that started after this call.
  func stamp() async throws -> Int64 { try await shared.stamp(of: nil) }
}

/// The one-process versions of what a store shared by several server processes must do
/// itself: the SQLite file is served by one `expenses serve`, whose writes already run one at
/// a time on its writer queue and whose running Idempotency-Keys it tracks in memory
/// (`ImportUploads`). `PostgresStore`, which any number of servers share, overrides both.
extension LedgerStore {
  /// One process: the caller's writes are already one at a time, so `body` just runs.
  public func atomically<T>(_ body: () throws -> T) throws -> T { try body() }

  /// Plain: `body`'s reads are each a transaction of their own. (SQLite: GRDB's reads cannot
  /// nest in one, and an import commits as one transaction, so each read sees it whole.)
  public func consistently<T>(_ body: () throws -> T) throws -> T { try body() }

  /// One process: the stored answer if the key finished, else `body`'s, stored after it.
  public func runOnce(
    token: String, key: String, requestHash: String, at time: String, _ body: () throws -> IdempotentResponse
  ) throws -> IdempotentOutcome {
    if let first = try idempotentResponse(token: token, key: key) { return .stored(first) }
    let response = try body()
    try saveIdempotentResponse(response, token: token, key: key, at: time)
    return .ran(response)
  }
}

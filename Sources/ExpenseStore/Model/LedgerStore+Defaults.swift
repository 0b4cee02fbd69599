/// The plain versions of the sessions, for a store that has no transactions to give (both
/// stores override `atomically` and `consistently`; `PostgresStore`, which any number of
/// servers share, also `runOnce`). The SQLite file is served by one `expenses serve`, whose
/// running Idempotency-Keys it tracks in memory (`ImportUploads`), so the one-process
/// `runOnce` below is its.
extension LedgerStore {
  /// A store whose stamps cost no I/O (a file's `data_version`, memory) reads each alone.
  public func stamps(of ledgers: [String]) throws -> LedgerStamps? { nil }

  /// Plain: `body` just runs (a store that overrides it makes it one transaction).
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

import ExpenseStore
import Foundation

extension ExpenseService {
  /// A token as `token list` shows it: its record and its state now.
  public struct TokenListing: Sendable, Equatable {
    public var token: APIToken
    /// "active", "expired", or "revoked <time>".
    public var state: String
  }

  /// Stores a new token under `hash` (only the hash is kept: the caller shows the token once),
  /// created now and expiring after `expiresInDays` (never, when nil).
  @discardableResult
  public func createToken(name: String, scope: APIToken.Scope, expiresInDays: Int?, hash: String) throws -> APIToken {
    let now = clock.now()
    let record = APIToken(
      name: name, scope: scope, createdAt: ImportRecord.timestamp(now),
      expiresAt: expiresInDays.map { ImportRecord.timestamp(now.addingTimeInterval(Double($0) * 86_400)) })
    try store.createToken(record, hash: hash)
    return record
  }

  /// Every token by name, with its state at the clock's now.
  public func tokens() throws -> [TokenListing] {
    let now = clock.timestamp
    return try store.tokens().map { token in
      TokenListing(
        token: token,
        state: token.revokedAt.map { "revoked \($0)" } ?? (token.isValid(at: now) ? "active" : "expired"))
    }
  }

  /// The token stored under `hash`, whatever its state.
  public func token(hash: String) throws -> APIToken? { try store.token(hash: hash) }

  /// Revokes token `name` now: every server refuses it on its next request.
  public func revokeToken(name: String) throws { try store.revokeToken(name: name, at: clock.timestamp) }

  /// The first answer given to `key` by this token, if any.
  public func idempotentResponse(token: String, key: String) throws -> IdempotentResponse? {
    try store.idempotentResponse(token: token, key: key)
  }

  /// Keeps the first answer to `key` (a later one for the same key is ignored).
  public func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String) throws {
    try store.saveIdempotentResponse(response, token: token, key: key, at: clock.timestamp)
  }

  /// Runs `body` once for `key` of `token` in every process serving the store, its answer
  /// stored with what it wrote (`LedgerStore.runOnce`).
  public func runOnce(
    token: String, key: String, requestHash: String, _ body: () throws -> IdempotentResponse
  ) throws -> IdempotentOutcome {
    try store.runOnce(token: token, key: key, requestHash: requestHash, at: clock.timestamp, body)
  }
}

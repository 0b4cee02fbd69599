import ExpenseStore
import Foundation

extension ExpenseService {
  /// A token as `token list` shows it: its record and its state now.
  public struct TokenListing: Sendable, Equatable {
    public var token: APIToken
    /// "active", "expired", or "revoked <time>".
    public var state: String
  }

  /// Makes a token and stores its hash: what `expenses token create` does. `user` defaults to
  /// the local user; `ledger` to `default` for the local user, else the user's only ledger
  /// (`ledgerNeeded` when there are several); `scope` to the widest the user's role there
  /// allows (read without a role). Returns the secret, shown once and never stored, and the
  /// record.
  public func mintToken(name: String, scope: APIToken.Scope?, expiresInDays: Int?, user: String?, ledger: String?)
    throws -> (secret: String, token: APIToken)
  {
    let owner = user ?? DirectoryName.localUser
    let ledger = try ledger ?? (user == nil ? DirectoryName.defaultLedger : onlyLedger(of: owner))
    let role = try members().first { $0.user == owner && $0.ledger == ledger }?.role
    let secret = TokenHasher.newToken()
    let record = try createToken(
      name: name, scope: scope ?? role?.widestScope ?? .read, expiresInDays: expiresInDays,
      hash: TokenHasher.hash(secret), user: owner, ledger: ledger)
    return (secret, record)
  }

  /// Stores a new token under `hash` (only the hash is kept: the caller shows the token once),
  /// created now and expiring after `expiresInDays` (never, when nil), acting for `user` on
  /// `ledger` (who must be a member there; the token never does more than their role allows).
  @discardableResult
  public func createToken(
    name: String, scope: APIToken.Scope, expiresInDays: Int?, hash: String, user: String = DirectoryName.localUser,
    ledger: String = DirectoryName.defaultLedger
  ) throws -> APIToken {
    let now = clock.now()
    let record = APIToken(
      name: name, scope: scope, createdAt: ImportRecord.timestamp(now),
      expiresAt: expiresInDays.map { ImportRecord.timestamp(now.addingTimeInterval(Double($0) * 86_400)) },
      user: user, ledger: ledger)
    try directory.createToken(record, hash: hash)
    return record
  }

  /// Every token by name, with its state at the clock's now.
  public func tokens() throws -> [TokenListing] {
    let now = clock.timestamp
    return try directory.tokens().map { token in
      TokenListing(
        token: token,
        state: token.revokedAt.map { "revoked \($0)" }
          ?? (token.role == nil ? "no role" : token.isValid(at: now) ? "active" : "expired"))
    }
  }

  /// The token stored under `hash`, whatever its state.
  public func token(hash: String) throws -> APIToken? { try directory.token(hash: hash) }

  /// The directory's change stamp (tokens, users, memberships, ledgers).
  public func directoryStamp() throws -> Int64 { try directory.directoryStamp() }

  /// Revokes token `name` now: every server refuses it on its next request.
  public func revokeToken(name: String) throws { try directory.revokeToken(name: name, at: clock.timestamp) }

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

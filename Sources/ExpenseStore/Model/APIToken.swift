/// A bearer token of the HTTP API as stored: everything but the token itself, of which only a
/// hash is kept.
public struct APIToken: Hashable, Sendable, Codable {
  /// What a token may do.
  public enum Scope: String, Sendable, Codable, CaseIterable {
    /// Only reads (GET).
    case read
    /// Reads and writes.
    case write
  }

  /// Unique; what `token revoke` and the request log name.
  public var name: String
  public var scope: Scope
  /// ISO 8601 UTC times (`ImportRecord.timestamp`), compared as text.
  public var createdAt: String
  public var expiresAt: String?
  public var revokedAt: String?
  /// The user the token acts for (`DirectoryName.localUser` for a token made without `--user`).
  public var user: String
  /// The one ledger the token acts on.
  public var ledger: String
  /// The user's role in that ledger when the token was read, `nil` when the user is no longer
  /// a member (then the token is refused). Not stored with the token: read beside it.
  public var role: LedgerRole?

  public init(
    name: String, scope: Scope, createdAt: String, expiresAt: String? = nil, revokedAt: String? = nil,
    user: String = DirectoryName.localUser, ledger: String = DirectoryName.defaultLedger, role: LedgerRole? = .owner
  ) {
    self.name = name
    self.scope = scope
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.revokedAt = revokedAt
    self.user = user
    self.ledger = ledger
    self.role = role
  }

  /// What the token may do now: its scope, narrowed to what its user's role allows; `nil`
  /// when its user has left the ledger.
  public var effectiveScope: Scope? {
    guard let role else { return nil }
    return role.writes ? scope : .read
  }

  /// How logs and listings name the token: its name, and its ledger unless that is `default`
  /// (names are unique in a store, the ledger only tells the reader where it acts).
  public var displayName: String { ledger == DirectoryName.defaultLedger ? name : "\(name)@\(ledger)" }

  /// Whether the token is accepted at `now` (an ISO 8601 UTC time in the same format).
  public func isValid(at now: String) -> Bool {
    revokedAt == nil && (expiresAt.map { now < $0 } ?? true)
  }
}

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

  public init(name: String, scope: Scope, createdAt: String, expiresAt: String? = nil, revokedAt: String? = nil) {
    self.name = name
    self.scope = scope
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.revokedAt = revokedAt
  }

  /// Whether the token is accepted at `now` (an ISO 8601 UTC time in the same format).
  public func isValid(at now: String) -> Bool {
    revokedAt == nil && (expiresAt.map { now < $0 } ?? true)
  }
}

/// One user's place in one ledger: the unit `expenses user add|remove|list` changes and shows.
public struct Membership: Sendable, Hashable, Codable {
  public var user: String
  public var ledger: String
  public var role: LedgerRole
  /// When the user was added (ISO 8601 UTC).
  public var since: String

  public init(user: String, ledger: String, role: LedgerRole, since: String) {
    self.user = user
    self.ledger = ledger
    self.role = role
    self.since = since
  }
}

/// What a user may do in a ledger: a household's owner, someone who records and imports, or
/// someone who only looks.
///
/// Why a role beside the token's scope: a token acts for a user, so it can never do more than
/// the user may, and taking a user's role away (or the user out of the ledger) takes it away
/// from every token of theirs on the next request, without finding and revoking each token.
public enum LedgerRole: String, Sendable, Codable, CaseIterable, Comparable {
  /// Reads only.
  case read
  /// Reads and writes the ledger's data.
  case write
  /// Writes, and is who the ledger belongs to (the CLI's `local` user owns `default`).
  case owner

  /// Whether this role may change the ledger's data.
  public var writes: Bool { self != .read }

  /// The token scope a role allows at most.
  public var widestScope: APIToken.Scope { writes ? .write : .read }

  public static func < (lhs: LedgerRole, rhs: LedgerRole) -> Bool {
    allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
  }
}

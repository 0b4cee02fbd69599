import ExpenseStore
import GRDB

extension AppDatabase {
  /// Stores a new token's hash. Throws `tokenExists` when the name is taken (even revoked:
  /// a name says which token a log line or an idempotency key belongs to), `notAMember` when
  /// its user has no role in its ledger.
  public func createToken(_ token: APIToken, hash: String) throws {
    try write { db in
      if try Bool.fetchOne(db, sql: "SELECT 1 FROM apiToken WHERE name = ?", arguments: [token.name]) == true {
        throw StoreError.tokenExists(token.name)
      }
      let member = try Bool.fetchOne(
        db, sql: "SELECT 1 FROM membership WHERE userName = ? AND ledgerName = ?",
        arguments: [token.user, token.ledger])
      if member != true { throw StoreError.notAMember(user: token.user, ledger: token.ledger) }
      try db.execute(
        sql: """
          INSERT INTO apiToken (name, hash, scope, createdAt, expiresAt, userName, ledgerName)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          token.name, hash, token.scope.rawValue, token.createdAt, token.expiresAt, token.user, token.ledger,
        ])
    }
  }

  /// A token's columns and its user's role in its ledger (NULL when no longer a member).
  static let tokenSelect = """
    SELECT t.*, m.role AS memberRole FROM apiToken t
    LEFT JOIN membership m ON m.userName = t.userName AND m.ledgerName = t.ledgerName
    """

  /// Every token, by name (hashes stay in the database).
  public func tokens() throws(StoreError) -> [APIToken] {
    try read { db in
      try Row.fetchAll(db, sql: Self.tokenSelect + " ORDER BY t.name").map(AppDatabase.token(from:))
    }
  }

  /// The token whose hash this is, revoked and expired ones included (the caller decides).
  public func token(hash: String) throws(StoreError) -> APIToken? {
    try read { db in
      try Row.fetchOne(db, sql: Self.tokenSelect + " WHERE t.hash = ?", arguments: [hash]).map(
        AppDatabase.token(from:))
    }
  }

  /// Revokes a token from now on; throws `tokenNotFound` for an unknown (or already revoked) name.
  public func revokeToken(name: String, at time: String) throws {
    try write { db in
      try db.execute(
        sql: "UPDATE apiToken SET revokedAt = ? WHERE name = ? AND revokedAt IS NULL", arguments: [time, name])
      if db.changesCount == 0 { throw StoreError.tokenNotFound(name) }
    }
  }

  static func token(from row: Row) throws -> APIToken {
    guard let scope = APIToken.Scope(rawValue: row["scope"]) else {
      throw UnreadableValue(detail: "token \(row["name"] as String): scope \(row["scope"] as String)")
    }
    // NULL when the user is no longer a member (the token is then refused, never a crash).
    let member: String? = row["memberRole"]
    let role = row.hasColumn("memberRole") ? member : LedgerRole.owner.rawValue
    return APIToken(
      name: row["name"], scope: scope, createdAt: row["createdAt"], expiresAt: row["expiresAt"],
      revokedAt: row["revokedAt"], user: row["userName"], ledger: row["ledgerName"],
      role: role.flatMap(LedgerRole.init(rawValue:)))
  }
}

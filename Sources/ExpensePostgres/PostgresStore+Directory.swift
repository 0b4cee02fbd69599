import ExpenseStore
import Foundation
import PostgresNIO

/// The database's directory: ledgers, users, memberships and tokens, shared by all its ledgers
/// (so any ledger's store answers for all of them). Row-level security shows a session only its
/// own ledger's directory rows; these functions, which are how a request finds its ledger in
/// the first place, run in a transaction that says so (`inDirectory`).
extension PostgresStore {
  public func ledgerNames() throws -> [String] {
    try inDirectory { connection in
      try connection.query("SELECT name FROM ledger ORDER BY name COLLATE \"C\"").map { try $0.decode(String.self) }
    }
  }

  public func createLedger(_ name: String, at time: String) throws {
    guard DirectoryName.isValid(name) else { throw StoreError.invalidName(kind: "ledger", name: name) }
    try inDirectory(write: true) { connection in
      guard try Self.insertLedger(name, on: connection) else { throw StoreError.ledgerExists(name) }
    }
  }

  public func members() throws -> [Membership] {
    try inDirectory { connection in
      try connection.query(
        """
        SELECT m.user_name, l.name, m.role, m.since FROM ledger_member m JOIN ledger l ON l.id = m.ledger_id
        ORDER BY m.user_name COLLATE "C", l.name COLLATE "C"
        """
      ).map { row in
        let (user, ledger, role, since) = try row.decode((String, String, String, String).self)
        return try membership(user: user, ledger: ledger, role: role, since: since)
      }
    }
  }

  /// A membership as stored, its role checked.
  func membership(user: String, ledger: String, role: String, since: String) throws -> Membership {
    guard let value = LedgerRole(rawValue: role) else {
      throw StoreError.unreadable(path: location.redacted, detail: "membership of \(user): role \(role)")
    }
    return Membership(user: user, ledger: ledger, role: value, since: since)
  }

  public func setMember(_ membership: Membership) throws {
    guard DirectoryName.isValid(membership.user) else {
      throw StoreError.invalidName(kind: "user", name: membership.user)
    }
    try inDirectory(write: true) { connection in
      let id = try ledgerID(membership.ledger, connection)
      try connection.query(
        "INSERT INTO app_user (name, created_at) VALUES (\(membership.user), \(membership.since)) ON CONFLICT DO NOTHING"
      )
      if membership.role != .owner {
        try keepAnOwner(user: membership.user, ledger: id, name: membership.ledger, connection)
      }
      try connection.query(
        """
        INSERT INTO ledger_member (ledger_id, user_name, role, since)
        VALUES (\(id), \(membership.user), \(membership.role.rawValue), \(membership.since))
        ON CONFLICT (ledger_id, user_name) DO UPDATE SET role = excluded.role
        """)
    }
  }

  public func removeMember(user: String, ledger name: String) throws {
    try inDirectory(write: true) { connection in
      let id = try ledgerID(name, connection)
      try keepAnOwner(user: user, ledger: id, name: name, connection)
      let result = try connection.query("DELETE FROM ledger_member WHERE ledger_id = \(id) AND user_name = \(user)")
      if (result.metadata.rows ?? 0) == 0 { throw StoreError.notAMember(user: user, ledger: name) }
    }
  }

  /// One statement: `directory` (a single counter) is no ledger's and has no row-level
  /// security, so its read needs no directory scope (and its transaction). A server on a pool
  /// reads it with every ledger's (`stamps(of:)`).
  public func directoryStamp() throws -> Int64 {
    try read { connection in
      try connection.query("SELECT revision FROM directory WHERE id = 1").first?.decode(Int64.self) ?? 0
    }
  }

  /// One statement for the directory's revision and the ledgers': on a pooled session that
  /// says `directory` for good (it sees every ledger's directory rows and no ledger's data), so
  /// a server reads the stamps of every request waiting at once in one round trip. A store
  /// with its own connection reads each alone (nil).
  public func stamps(of ledgers: [String]) throws -> LedgerStamps? {
    guard case .pooled(let pool) = source else { return nil }
    let connection = try pool.lease(Session(ledger: nil, readOnly: true, directory: true))
    var clean = false
    defer { pool.giveBack(connection, clean: clean) }
    let rows = try connection.query(
      """
      SELECT NULL::text, revision FROM directory WHERE id = 1
      UNION ALL SELECT name, revision FROM ledger WHERE name = ANY(\(ledgers))
      """)
    var stamps = LedgerStamps(directory: 0, ledgers: [:])
    for row in rows {
      let (name, revision) = try row.decode((String?, Int64).self)
      if let name { stamps.ledgers[name] = revision } else { stamps.directory = revision }
    }
    clean = true
    return stamps
  }

  /// The id of ledger `name` (`noLedger` when there is none).
  func ledgerID(_ name: String, _ connection: BlockingConnection) throws -> Int64 {
    guard let row = try connection.query("SELECT id FROM ledger WHERE name = \(name)").first else {
      throw StoreError.noLedger(path: location.redacted, ledger: name)
    }
    return try row.decode(Int64.self)
  }

  /// Throws `lastOwner` when `user` is the only owner of the ledger. The ledger's row is locked
  /// first: two sessions taking two owners out of one ledger (each from a store of its own
  /// ledger, which holds only that ledger's lock) would otherwise both see the other owner and
  /// both commit, leaving none.
  func keepAnOwner(user: String, ledger: Int64, name: String, _ connection: BlockingConnection) throws {
    try connection.query("SELECT 1 FROM ledger WHERE id = \(ledger) FOR UPDATE")
    let owners = try connection.query(
      "SELECT user_name FROM ledger_member WHERE ledger_id = \(ledger) AND role = 'owner'"
    ).map { try $0.decode(String.self) }
    if owners == [user] { throw StoreError.lastOwner(user: user, ledger: name) }
  }

  // MARK: Tokens

  public func createToken(_ token: APIToken, hash: String) throws {
    try inDirectory(write: true) { connection in
      let id = try ledgerID(token.ledger, connection)
      if try connection.query("SELECT 1 FROM api_token WHERE name = \(token.name)").first != nil {
        throw StoreError.tokenExists(token.name)
      }
      let member = try connection.query(
        "SELECT 1 FROM ledger_member WHERE ledger_id = \(id) AND user_name = \(token.user)")
      if member.first == nil { throw StoreError.notAMember(user: token.user, ledger: token.ledger) }
      try connection.query(
        """
        INSERT INTO api_token (ledger_id, name, hash, scope, created_at, expires_at, user_name)
        VALUES (\(id), \(token.name), \(hash), \(token.scope.rawValue), \(token.createdAt), \(token.expiresAt),
                \(token.user))
        """)
    }
  }

  /// A token's columns, its ledger's name, its user's role there (NULL: no longer a member)
  /// and its hash.
  static let tokenColumns = """
    SELECT t.name, t.scope, t.created_at, t.expires_at, t.revoked_at, t.user_name, l.name, m.role, t.hash
    FROM api_token t JOIN ledger l ON l.id = t.ledger_id
    LEFT JOIN ledger_member m ON m.ledger_id = t.ledger_id AND m.user_name = t.user_name
    """

  /// The token in a row of `tokenColumns`.
  func token(_ row: PostgresRow) throws -> APIToken { try storedToken(row).token }

  /// The token and its hash in a row of `tokenColumns`.
  func storedToken(_ row: PostgresRow) throws -> StoredToken {
    var cells = row.makeIterator()
    func next<T: PostgresDecodable>(_ type: T.Type) throws -> T {
      guard let cell = cells.next() else {
        throw StoreError.unreadable(path: location.redacted, detail: "a token row is short of columns")
      }
      return try cell.decode(T.self)
    }
    let (name, scope, created) = (try next(String.self), try next(String.self), try next(String.self))
    let (expires, revoked) = (try next(String?.self), try next(String?.self))
    let (user, ledger, role) = (try next(String.self), try next(String.self), try next(String?.self))
    let hash = try next(String.self)
    guard let scope = APIToken.Scope(rawValue: scope) else {
      throw StoreError.unreadable(path: location.redacted, detail: "token \(name): scope \(scope)")
    }
    let token = APIToken(
      name: name, scope: scope, createdAt: created, expiresAt: expires, revokedAt: revoked, user: user,
      ledger: ledger, role: role.flatMap(LedgerRole.init(rawValue:)))
    return StoredToken(token: token, hash: hash)
  }

  public func tokens() throws -> [APIToken] {
    try inDirectory { connection in
      try connection.query(PostgresQuery(unsafeSQL: Self.tokenColumns + " ORDER BY t.name COLLATE \"C\"")).map {
        try token($0)
      }
    }
  }

  public func token(hash: String) throws -> APIToken? {
    try inDirectory { connection in
      try connection.query(
        PostgresQuery(unsafeSQL: Self.tokenColumns + " WHERE t.hash = $1", binds: try binds(hash))
      ).first.map { try token($0) }
    }
  }

  public func revokeToken(name: String, at time: String) throws {
    try inDirectory(write: true) { connection in
      let result = try connection.query(
        "UPDATE api_token SET revoked_at = \(time) WHERE name = \(name) AND revoked_at IS NULL")
      if (result.metadata.rows ?? 0) == 0 { throw StoreError.tokenNotFound(name) }
    }
  }
}

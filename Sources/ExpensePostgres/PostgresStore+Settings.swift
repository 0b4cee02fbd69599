import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO

/// Settings, import profiles, section states, the API's tokens and the revision (idempotency
/// keys: `+Idempotency`).
extension PostgresStore {
  public func defaultCurrency() throws -> Currency {
    try setting("currency").flatMap { Currency(code: $0) } ?? .usd
  }

  public func setDefaultCurrency(_ currency: Currency) throws { try setSetting("currency", currency.code) }

  public func setting(_ key: String) throws -> String? {
    try read { connection in
      try connection.query("SELECT value FROM setting WHERE ledger_id = \(ledger) AND key = \(key)")
        .first?.decode(String.self)
    }
  }

  public func setSetting(_ key: String, _ value: String) throws {
    try write { connection in
      try connection.query(
        """
        INSERT INTO setting (ledger_id, key, value) VALUES (\(ledger), \(key), \(value))
        ON CONFLICT (ledger_id, key) DO UPDATE SET value = excluded.value
        """)
    }
  }

  public func profile(named name: String) throws -> String {
    let json = try read { connection in
      try connection.query("SELECT options FROM import_profile WHERE ledger_id = \(ledger) AND name = \(name)")
        .first?.decode(String.self)
    }
    guard let json else { throw StoreError.profileNotFound(name) }
    return json
  }

  public func profileNames() throws -> [String] {
    try read { connection in
      try connection.query(
        "SELECT name FROM import_profile WHERE ledger_id = \(ledger) ORDER BY name COLLATE \"C\""
      ).map { try $0.decode(String.self) }
    }
  }

  public func saveProfile(name: String, json: String) throws {
    try write { connection in try saveProfile(connection, name: name, json: json) }
  }

  func saveProfile(_ connection: BlockingConnection, name: String, json: String) throws {
    try connection.query(
      """
      INSERT INTO import_profile (ledger_id, name, options) VALUES (\(ledger), \(name), \(json))
      ON CONFLICT (ledger_id, name) DO UPDATE SET options = excluded.options
      """)
  }

  public func sectionStates() throws -> [String: Bool] {
    try read { connection in
      var states: [String: Bool] = [:]
      for row in try connection.query(
        "SELECT section_id, expanded FROM section_preference WHERE ledger_id = \(ledger)")
      {
        let (id, expanded) = try row.decode((String, Bool).self)
        states[id] = expanded
      }
      return states
    }
  }

  public func saveSectionStates(_ states: [String: Bool]) throws {
    try write { connection in
      for (id, expanded) in states {
        try connection.query(
          """
          INSERT INTO section_preference (ledger_id, section_id, expanded) VALUES (\(ledger), \(id), \(expanded))
          ON CONFLICT (ledger_id, section_id) DO UPDATE SET expanded = excluded.expanded
          """)
      }
    }
  }

  public func resetSectionStates() throws {
    try write { connection in try connection.query("DELETE FROM section_preference WHERE ledger_id = \(ledger)") }
  }

  public func createToken(_ token: APIToken, hash: String) throws {
    try write { connection in
      let taken = try connection.query(
        "SELECT 1 FROM api_token WHERE ledger_id = \(ledger) AND name = \(token.name)")
      if taken.first != nil { throw StoreError.tokenExists(token.name) }
      try connection.query(
        """
        INSERT INTO api_token (ledger_id, name, hash, scope, created_at, expires_at)
        VALUES (\(ledger), \(token.name), \(hash), \(token.scope.rawValue), \(token.createdAt), \(token.expiresAt))
        """)
    }
  }

  static let tokenColumns = "SELECT name, scope, created_at, expires_at, revoked_at FROM api_token"

  func token(_ row: PostgresRow) throws -> APIToken {
    let (name, scope, created, expires, revoked) = try row.decode((String, String, String, String?, String?).self)
    guard let scope = APIToken.Scope(rawValue: scope) else {
      throw StoreError.unreadable(path: location.redacted, detail: "token \(name): scope \(scope)")
    }
    return APIToken(name: name, scope: scope, createdAt: created, expiresAt: expires, revokedAt: revoked)
  }

  public func tokens() throws -> [APIToken] {
    try read { connection in
      try connection.query(
        PostgresQuery(
          unsafeSQL: Self.tokenColumns + " WHERE ledger_id = $1 ORDER BY name COLLATE \"C\"", binds: try binds(ledger))
      ).map(token)
    }
  }

  public func token(hash: String) throws -> APIToken? {
    try read { connection in
      try connection.query(
        PostgresQuery(
          unsafeSQL: Self.tokenColumns + " WHERE ledger_id = $1 AND hash = $2", binds: try binds(ledger, hash))
      ).first.map(token)
    }
  }

  public func revokeToken(name: String, at time: String) throws {
    try write { connection in
      let result = try connection.query(
        """
        UPDATE api_token SET revoked_at = \(time)
        WHERE ledger_id = \(ledger) AND name = \(name) AND revoked_at IS NULL
        """)
      if (result.metadata.rows ?? 0) == 0 { throw StoreError.tokenNotFound(name) }
    }
  }

  public func revision() throws -> Int64 {
    try read { connection in
      try connection.query("SELECT revision FROM ledger WHERE id = \(ledger)").first?.decode(Int64.self) ?? 0
    }
  }

  /// The ledger's revision: every commit that changes what the API serves raises it, from any
  /// process (PostgreSQL has no `data_version`).
  public func changeStamp() throws -> Int64 { try revision() }
}

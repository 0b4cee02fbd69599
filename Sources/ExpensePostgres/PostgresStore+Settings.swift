import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO

/// Settings, import profiles, section states, the API's tokens and the revision (idempotency
/// keys: `+Idempotency`).
extension PostgresStore {
  public func setting(_ key: String) throws -> String? {
    try read { connection in
      try connection.query("SELECT value FROM setting WHERE ledger_id = \(ledger) AND key = \(key)")
        .first?.decode(String.self)
    }
  }

  public func removeSetting(_ key: String) throws {
    try write { connection in
      try connection.query("DELETE FROM setting WHERE ledger_id = \(ledger) AND key = \(key)")
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

  public func removeSectionStates(_ keys: [String]) throws {
    try write { connection in
      for key in keys {
        try connection.query("DELETE FROM section_preference WHERE ledger_id = \(ledger) AND section_id = \(key)")
      }
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

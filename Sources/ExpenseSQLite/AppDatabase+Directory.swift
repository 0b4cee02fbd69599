import ExpenseStore
import GRDB

/// The directory of the main file: its ledgers, users and memberships (`migrateUsers`).
extension AppDatabase {
  public func ledgerNames() throws -> [String] {
    try read { db in try String.fetchAll(db, sql: "SELECT name FROM ledger ORDER BY name") }
  }

  /// Registers ledger `name`, owned by `local`. (Its file is made by `LedgerFiles`.)
  public func createLedger(_ name: String, at time: String) throws {
    guard DirectoryName.isValid(name) else { throw StoreError.invalidName(kind: "ledger", name: name) }
    try write { db in
      if try Bool.fetchOne(db, sql: "SELECT 1 FROM ledger WHERE name = ?", arguments: [name]) == true {
        throw StoreError.ledgerExists(name)
      }
      try db.execute(sql: "INSERT INTO ledger (name, createdAt) VALUES (?, ?)", arguments: [name, time])
      try db.execute(
        sql: "INSERT INTO membership (userName, ledgerName, role, since) VALUES (?, ?, 'owner', ?)",
        arguments: [DirectoryName.localUser, name, time])
    }
  }

  public func members() throws -> [Membership] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT userName, ledgerName, role, since FROM membership ORDER BY userName, ledgerName"
      ).map { try Self.membership(from: $0, ledger: $0["ledgerName"]) }
    }
  }

  /// The membership in a row of `userName`, `role`, `since`, in `ledger`.
  static func membership(from row: Row, ledger: String) throws -> Membership {
    guard let role = LedgerRole(rawValue: row["role"]) else {
      throw UnreadableValue(detail: "membership of \(row["userName"] as String): role \(row["role"] as String)")
    }
    return Membership(user: row["userName"], ledger: ledger, role: role, since: row["since"])
  }

  /// Adds the user (made when new) to the ledger with this role, or changes their role there.
  public func setMember(_ membership: Membership) throws {
    guard DirectoryName.isValid(membership.user) else {
      throw StoreError.invalidName(kind: "user", name: membership.user)
    }
    try write { db in
      guard
        try Bool.fetchOne(db, sql: "SELECT 1 FROM ledger WHERE name = ?", arguments: [membership.ledger]) == true
      else { throw StoreError.noLedger(path: path, ledger: membership.ledger) }
      try db.execute(
        sql: "INSERT INTO appUser (name, createdAt) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        arguments: [membership.user, membership.since])
      if membership.role != .owner {
        try Self.keepAnOwner(db, user: membership.user, ledger: membership.ledger)
      }
      try db.execute(
        sql: """
          INSERT INTO membership (userName, ledgerName, role, since) VALUES (?, ?, ?, ?)
          ON CONFLICT (userName, ledgerName) DO UPDATE SET role = excluded.role
          """,
        arguments: [membership.user, membership.ledger, membership.role.rawValue, membership.since])
    }
  }

  /// Takes the user out of the ledger: their tokens there are refused from the next request.
  public func removeMember(user: String, ledger: String) throws {
    try write { db in
      try Self.keepAnOwner(db, user: user, ledger: ledger)
      try db.execute(
        sql: "DELETE FROM membership WHERE userName = ? AND ledgerName = ?", arguments: [user, ledger])
      if db.changesCount == 0 { throw StoreError.notAMember(user: user, ledger: ledger) }
    }
  }

  /// Throws `lastOwner` when `user` is the only owner of `ledger` (a ledger keeps one).
  static func keepAnOwner(_ db: Database, user: String, ledger: String) throws {
    let owners = try String.fetchAll(
      db, sql: "SELECT userName FROM membership WHERE ledgerName = ? AND role = 'owner'", arguments: [ledger])
    if owners == [user] { throw StoreError.lastOwner(user: user, ledger: ledger) }
  }

  /// The main file's change stamp covers its directory (tokens and memberships live in it).
  public func directoryStamp() throws -> Int64 { try changeStamp() }
}

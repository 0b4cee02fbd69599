import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// Accounts: listed from the rows, renamed in one transaction with the name remembered.
extension AppDatabase {
  /// This build's SQLite schema (`LedgerStore.schemaVersion`).
  public var schemaVersion: Int { AppDatabase.schemaVersion }

  public func accounts() throws -> [AccountSummary] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT account, COUNT(*) AS rows, MIN(date) AS first, MAX(date) AS last FROM expense
          WHERE account IS NOT NULL GROUP BY account ORDER BY account
          """
      ).map { row in
        AccountSummary(
          name: row["account"], rows: row["rows"], firstDate: try CivilDate.parseStored(row["first"]),
          lastDate: try CivilDate.parseStored(row["last"]))
      }
    }
  }

  public func renameAccount(_ from: String, to: String) throws -> Int {
    try write { db in
      try db.execute(sql: "UPDATE expenseRow SET account = ? WHERE account = ?", arguments: [to, from])
      let renamed = db.changesCount
      // Names that led to `from` lead to `to` now; `from` itself leads to `to`.
      try db.execute(
        sql: "UPDATE setting SET value = ? WHERE key LIKE ? ESCAPE '\\' AND value = ?",
        arguments: [to, AppDatabase.likePrefix(AccountNames.prefix), from])
      try db.execute(
        sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        arguments: [AccountNames.prefix + from, to])
      try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [AccountNames.prefix + to])
      return renamed
    }
  }

  public func accountNames() throws -> [String: String] {
    try read { db in
      var names: [String: String] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT key, value FROM setting WHERE key LIKE ? ESCAPE '\\'",
        arguments: [AppDatabase.likePrefix(AccountNames.prefix)])
      {
        let key: String = row["key"]
        names[String(key.dropFirst(AccountNames.prefix.count))] = row["value"]
      }
      return names
    }
  }

  /// A `LIKE` pattern for text starting with `prefix` (its `%`, `_` and `\` escaped).
  static func likePrefix(_ prefix: String) -> String {
    prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
      .replacingOccurrences(of: "_", with: "\\_") + "%"
  }
}

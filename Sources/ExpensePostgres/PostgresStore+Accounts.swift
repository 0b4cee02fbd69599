import ExpenseCore
import ExpenseStore
import PostgresNIO

/// Accounts: listed from the rows, renamed in one transaction with the name remembered.
extension PostgresStore {
  /// This build's PostgreSQL schema (`LedgerStore.schemaVersion`).
  public var schemaVersion: Int { PostgresSchema.version }

  public func accounts() throws -> [AccountSummary] {
    try read { connection in
      try connection.query(
        """
        SELECT account, COUNT(*)::bigint, to_char(MIN(date), 'YYYY-MM-DD'), to_char(MAX(date), 'YYYY-MM-DD')
        FROM expense WHERE ledger_id = \(ledger) AND account IS NOT NULL GROUP BY account ORDER BY account
        """
      ).map { row in
        let (name, rows, first, last) = try row.decode((String, Int64, String, String).self)
        return AccountSummary(
          name: name, rows: Int(rows), firstDate: try CivilDate.parseStored(first),
          lastDate: try CivilDate.parseStored(last))
      }
    }
  }

  public func renameAccount(_ from: String, to: String) throws -> Int {
    try write { connection in
      let renamed = try connection.query(
        "UPDATE expense SET account = \(to) WHERE ledger_id = \(ledger) AND account = \(from)")
      let prefix = AccountNames.prefix
      try connection.query(
        """
        UPDATE setting SET value = \(to)
        WHERE ledger_id = \(ledger) AND starts_with(key, \(prefix)) AND value = \(from)
        """)
      try connection.query(
        """
        INSERT INTO setting (ledger_id, key, value) VALUES (\(ledger), \(prefix + from), \(to))
        ON CONFLICT (ledger_id, key) DO UPDATE SET value = excluded.value
        """)
      try connection.query("DELETE FROM setting WHERE ledger_id = \(ledger) AND key = \(prefix + to)")
      return renamed.metadata.rows ?? 0
    }
  }

  public func accountNames() throws -> [String: String] {
    try read { connection in
      var names: [String: String] = [:]
      let prefix = AccountNames.prefix
      for row in try connection.query(
        "SELECT key, value FROM setting WHERE ledger_id = \(ledger) AND starts_with(key, \(prefix))")
      {
        let (key, value) = try row.decode((String, String).self)
        names[String(key.dropFirst(prefix.count))] = value
      }
      return names
    }
  }
}

import ExpenseCore
import ExpenseStore
import PostgresNIO

/// `check`, its repair, and backups.
extension PostgresStore {
  /// The rollup recomputed from the rows, through the triggers' own function.
  static let rollupFromRows = """
    SELECT * FROM month_totals_of(ARRAY(
      SELECT (e.ledger_id, e.date, e.currency, e.category, e.amount_minor, 1)::expense_change
      FROM expense e WHERE e.ledger_id = $1))
    """

  /// Compares `month_total` with the rows. PostgreSQL checks its own pages and the foreign
  /// keys, so `integrity` stays empty; sums past the limit could not be stored.
  public func check() throws -> CheckReport {
    try read { connection in try check(connection) }
  }

  func check(_ connection: BlockingConnection) throws -> CheckReport {
    var report = CheckReport()
    report.rollupsChecked = ["monthTotal"]
    report.expenseCount = Int(
      clamping: try connection.query("SELECT COUNT(*) FROM expense WHERE ledger_id = \(ledger)")
        .first?.decode(Int64.self) ?? 0)
    let differing = try connection.query(
      PostgresQuery(
        unsafeSQL: """
          WITH rows AS (\(Self.rollupFromRows)),
          stored AS (
            SELECT ledger_id, month, currency, category, outflow, inflow, count, inflow_count, daily
            FROM month_total WHERE ledger_id = $1)
          SELECT DISTINCT to_char(month, 'YYYY-MM') FROM (
            (SELECT * FROM rows EXCEPT SELECT * FROM stored) UNION ALL (SELECT * FROM stored EXCEPT SELECT * FROM rows)
          ) AS d ORDER BY 1
          """, binds: try binds(ledger))
    ).map { try $0.decode(String.self) }
    if !differing.isEmpty {
      report.problems.append(.rollupOutOfStep(table: "monthTotal", months: differing))
    }
    return report
  }

  public func repairRollups() throws -> (rebuilt: [String], report: CheckReport) {
    try write { connection in
      guard !(try check(connection)).isHealthy else { return ([], try check(connection)) }
      // Rebuilt without the triggers' help: the rows are not changed, only their sums stored.
      try connection.query("DELETE FROM month_total WHERE ledger_id = \(ledger)")
      try connection.query(
        PostgresQuery(unsafeSQL: "INSERT INTO month_total " + Self.rollupFromRows, binds: try binds(ledger)))
      try connection.query("UPDATE ledger SET revision = revision + 1 WHERE id = \(ledger)")
      return (["monthTotal"], try check(connection))
    }
  }

  /// Not done by the store: a PostgreSQL database is backed up with the server's tools.
  public func backup(into path: String) throws {
    throw StoreError.io(
      path: location.redacted,
      detail: "a PostgreSQL store is backed up with pg_dump (or the server's own backups), not into a file by expenses")
  }
}

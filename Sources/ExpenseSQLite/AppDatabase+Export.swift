import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// Expenses dated `first...last` (either end open when `nil`), oldest first, as an export
  /// writes them: a journal reads in date order, and ties keep the order they were stored in.
  ///
  /// Uses the date-first `key` index like `expenses(month:)`, so a month of a large database
  /// reads only that month's rows.
  public func expenses(from first: CivilDate?, through last: CivilDate?) throws(StoreError) -> [Expense] {
    var conditions: [String] = []
    var arguments: StatementArguments = []
    if let first {
      conditions.append("key >= ?")
      arguments += [ExpenseKey.range(day: ExpenseKey.storedDay(first)).lowerBound]
    }
    if let last {
      conditions.append("key <= ?")
      arguments += [ExpenseKey.range(day: ExpenseKey.storedDay(last)).upperBound]
    }
    var sql = """
      SELECT e.id, date, amountMinor, currency, description, category, account, f.name AS sourceFile, sourceLine
      FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
      """
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY date, e.id, e.key"
    return try read { db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).map(AppDatabase.expense(from:))
    }
  }
}

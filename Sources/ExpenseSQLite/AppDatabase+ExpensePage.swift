import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// Expenses newest day first, `limit` at a time, by keyset pagination on the row key.
  ///
  /// Why the key and not an offset: the key (day in the high bits, see `ImportSession.key`) is
  /// the table's rowid, unique and ordered by day, so a page is a range read that starts where
  /// the last one stopped. Rows added while a client pages either fall before its cursor (and are
  /// not seen) or after it (seen once); none is seen twice or skipped, whatever is inserted. An
  /// offset would shift under inserts. Within a day the order is the key's, not the id's.
  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) throws(StoreError)
    -> ExpensePage
  {
    var conditions: [String] = []
    var arguments: StatementArguments = []
    if let key = try ExpensePage.key(of: cursor) {
      conditions.append("key < ?")
      arguments += [key]
    }
    if let month {
      let keys = ExpenseKey.range(from: month.firstDay, through: month.lastDay)
      conditions.append("key BETWEEN ? AND ?")
      arguments += [keys.lowerBound, keys.upperBound]
    }
    if let category {
      if CategoryName.key(category) == CategoryName.key(uncategorizedName) {
        conditions.append("category IS NULL")
      } else {
        conditions.append("category = ?")
        arguments += [try categoryNames().known(category) ?? category]
      }
    }
    var sql = """
      SELECT e.key, e.id, date, amountMinor, currency, description, category, account, f.name AS sourceFile,
             sourceLine
      FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
      """
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY key DESC LIMIT \(limit + 1)"
    let finalSQL = sql
    let finalArguments = arguments
    return try read { db in
      let rows = try Row.fetchAll(db, sql: finalSQL, arguments: finalArguments)
      let page = rows.prefix(limit)
      let expenses = try page.map(AppDatabase.expense(from:))
      let next = rows.count > limit ? page.last.map { ExpensePage.cursor(afterKey: $0["key"]) } : nil
      return ExpensePage(expenses: expenses, nextCursor: next)
    }
  }
}

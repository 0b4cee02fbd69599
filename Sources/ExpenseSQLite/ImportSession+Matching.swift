import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// What the service's matching of an import's rows against the stored ones asks of the
/// session (see `ImportWriter`): the ledger's span of days, the stored rows near the import's,
/// taking back rows found to be probable duplicates, and recording transfer pairs. All inside
/// the import's one transaction, before `finish` adds the file's sums to the rollup.
extension ImportSession {
  /// The first and last day of the rows stored before this import: two lookups at the ends of
  /// the primary key (a row's key starts with its day).
  static func storedSpan(_ keys: ClosedRange<Int64>?) -> ClosedRange<CivilDate>? {
    guard let keys else { return nil }
    let (first, last) = (ExpenseKey(rawValue: keys.lowerBound).date, ExpenseKey(rawValue: keys.upperBound).date)
    return first <= last ? first...last : nil
  }

  /// The smallest and largest key stored (nil: no row).
  static func storedKeyRange(_ db: Database) throws -> ClosedRange<Int64>? {
    guard let low = try Int64.fetchOne(db, sql: "SELECT MIN(key) FROM expenseRow"),
      let high = try Int64.fetchOne(db, sql: "SELECT MAX(key) FROM expenseRow"), low <= high
    else { return nil }
    return low...high
  }

  /// Every batch is stored as it is written.
  public func storeWritten() throws {}

  public func neighbours(from first: CivilDate, through last: CivilDate, magnitudes: Set<Int64>) throws
    -> [NeighbourRow]
  {
    guard first <= last, !magnitudes.isEmpty else { return [] }
    let keys = ExpenseKey.range(from: first, through: last)
    let rows = try Row.fetchCursor(
      db,
      sql: AppDatabase.rowColumns + """
         WHERE e.key BETWEEN ? AND ? AND e.id < ?
        """, arguments: [keys.lowerBound, keys.upperBound, firstID])
    var found: [NeighbourRow] = []
    while let row = try rows.next() {
      let minor: Int64 = row["amountMinor"]
      guard magnitudes.contains(minor.magnitude > UInt64(Int64.max) ? 0 : Int64(minor.magnitude)) else { continue }
      let expense = try AppDatabase.expense(from: row)
      guard let id = expense.id else { continue }
      found.append(
        NeighbourRow(
          key: row["key"], id: id, date: expense.date, amount: expense.amount, description: expense.description,
          account: expense.account, category: expense.category, categorySource: expense.categorySource ?? .none,
          source: expense.source, paired: try AppDatabase.pair(db, of: id) != nil))
    }
    return found
  }

  public func withdraw(keys: [Int64]) throws {
    guard !keys.isEmpty else { return }
    if dryRun {
      inserted -= keys.count
      return
    }
    let select = try db.makeStatement(
      sql: "SELECT date, amountMinor, currency, category FROM expense WHERE key = ? AND id >= ?")
    let delete = try db.makeStatement(sql: "DELETE FROM expenseRow WHERE key = ?")
    for key in keys {
      guard let row = try Row.fetchOne(select, arguments: [key, firstID]),
        let currency = Currency(code: row["currency"])
      else { continue }
      totals.remove(
        date: try CivilDate.parseStored(row["date"]), amount: Money(minor: row["amountMinor"], currency: currency),
        category: row["category"])
      try delete.execute(arguments: [key])
      inserted -= 1
    }
  }

  public func pairTransfers(_ links: [TransferLink], category: String) throws {
    guard !dryRun, !links.isEmpty else { return }
    let select = try db.makeStatement(sql: AppDatabase.rowColumns + " WHERE e.key = ?")
    for link in links {
      guard let out = try Row.fetchOne(select, arguments: [link.outKey]).map(AppDatabase.expense(from:)),
        let into = try Row.fetchOne(select, arguments: [link.inKey]).map(AppDatabase.expense(from:)),
        let outID = out.id, let inID = into.id
      else { continue }
      try db.execute(
        sql: """
          INSERT INTO transferPair (outId, inId, outCategory, outSource, inCategory, inSource)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          outID, inID, out.category, (out.categorySource ?? .none).rawValue, into.category,
          (into.categorySource ?? .none).rawValue,
        ])
      for (key, row) in [(link.outKey, out), (link.inKey, into)] {
        try db.execute(
          sql: "UPDATE expense SET category = ?, categorySource = ? WHERE key = ?",
          arguments: [category, CategorySource.transfer.rawValue, key])
        totals.remove(date: row.date, amount: row.amount, category: row.category)
        try totals.add(date: row.date, amount: row.amount, category: category)
      }
    }
  }
}

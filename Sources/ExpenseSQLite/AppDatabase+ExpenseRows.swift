import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// One expense by id, delete and edit: each write is one transaction that changes the rows and
/// the `monthTotal` rollup by exactly what changed (old values taken out, new ones added through
/// `MonthTotalDeltas`). Rows are found by their user-facing id through `IdRuns`, never by a scan.
extension AppDatabase {
  static let rowColumns = """
    SELECT e.key, e.id, date, amountMinor, currency, description, category, account, categorySource,
           f.name AS sourceFile, sourceLine
    FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
    """

  /// One expense by id, or `nil`.
  public func expense(id: Int64) throws(StoreError) -> Expense? {
    try read { db in try AppDatabase.storedRow(db, id: id).map(\.expense) }
  }

  struct StoredRow {
    var key: Int64
    var expense: Expense
    var source: CategorySource
  }

  static func storedRow(_ db: Database, id: Int64) throws -> StoredRow? {
    guard let key = try IdRuns.key(db, id: id),
      let row = try Row.fetchOne(db, sql: rowColumns + " WHERE e.key = ?", arguments: [key])
    else { return nil }
    return StoredRow(
      key: row["key"], expense: try expense(from: row),
      source: CategorySource(rawValue: row["categorySource"]) ?? .none)
  }

  /// Deletes the expenses with these ids, all or none: if any id is unknown nothing is deleted
  /// and `expenseNotFound` names the unknown ones. A part of a split transaction goes only with
  /// all its parts: named together, or added by `wholeSplits`; otherwise `splitPart` refuses.
  /// Returns the deleted rows.
  @discardableResult
  public func deleteExpenses(ids: [Int64], wholeSplits: Bool = false) throws -> [Expense] {
    try write { db in
      var seen = Set<Int64>()
      var rows: [StoredRow] = []
      var missing: [Int64] = []
      for id in ids where seen.insert(id).inserted {
        if let row = try AppDatabase.storedRow(db, id: id) { rows.append(row) } else { missing.append(id) }
      }
      if !missing.isEmpty { throw StoreError.expenseNotFound(missing) }
      let named = rows.compactMap(\.expense.id)
      for id in try AppDatabase.splitClosure(db, of: named, wholeSplits: wholeSplits) where seen.insert(id).inserted {
        if let row = try AppDatabase.storedRow(db, id: id) { rows.append(row) }
      }
      try AppDatabase.forgetSplitParts(db, ids: rows.compactMap(\.expense.id))
      try AppDatabase.dissolvePairs(db, of: rows.compactMap(\.expense.id))
      var totals = MonthTotalDeltas()
      let delete = try db.makeStatement(sql: "DELETE FROM expenseRow WHERE key = ?")
      for row in rows {
        totals.remove(date: row.expense.date, amount: row.expense.amount, category: row.expense.category)
        try delete.execute(arguments: [row.key])
      }
      try totals.apply(db)
      return rows.map(\.expense)
    }
  }

  /// Changes one expense; it keeps its id. A new date moves it to a free key on that day (the
  /// key starts with the day), so re-importing the original file will not see it as a
  /// duplicate any more. A category set here is the user's: `rules apply` never changes it.
  /// A new date outside `CivilDate.supportedRange` is refused (its key would not hold its day).
  @discardableResult
  public func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense {
    if let date = change.date, !date.isSupported { throw CoreError.dateOutOfRange(date.description) }
    return try write { db in
      guard let old = try AppDatabase.storedRow(db, id: id) else { throw StoreError.expenseNotFound([id]) }
      if change.movesOrResizes(old.expense), let parts = try AppDatabase.splitParts(db, of: id) {
        throw StoreError.splitPart(id: id, parts: parts, change: .amountOrDate)
      }
      // Known spellings are read only when the category changes.
      var names = change.category == nil ? CategoryNames() : try AppDatabase.categoryNames(db)
      let (new, source) = change.applied(to: old.expense, source: old.source, names: &names)
      // A new date needs a new key (the key starts with the day); the row keeps its id.
      let key = new.date == old.expense.date ? old.key : try ImportSession.freeKey(db, on: new.date, seed: id)
      if key != old.key { try IdRuns.move(db, id: id, to: ExpenseKey(rawValue: key).day) }
      try db.execute(
        sql: """
          UPDATE expense SET key = ?, date = ?, amountMinor = ?, description = ?, category = ?, account = ?,
                             categorySource = ?
          WHERE key = ?
          """,
        arguments: [
          key, new.date.description, new.amount.minor, new.description, new.category, new.account, source.rawValue,
          old.key,
        ])
      var totals = MonthTotalDeltas()
      totals.remove(date: old.expense.date, amount: old.expense.amount, category: old.expense.category)
      try totals.add(date: new.date, amount: new.amount, category: new.category)
      try totals.apply(db)
      return new
    }
  }
}

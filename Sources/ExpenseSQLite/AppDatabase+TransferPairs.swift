import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// Transfer pairs (schema v9): read, undone, and dissolved with a row that goes. Each change
/// moves the rows' sums in the rollup by exactly what changed, in its one transaction.
extension AppDatabase {
  static let pairColumns = "SELECT outId, inId, outCategory, outSource, inCategory, inSource FROM transferPair"

  static func transferPair(from row: Row) -> TransferPair {
    TransferPair(
      outId: row["outId"], inId: row["inId"], outCategory: row["outCategory"],
      outSource: CategorySource(rawValue: row["outSource"]) ?? .none, inCategory: row["inCategory"],
      inSource: CategorySource(rawValue: row["inSource"]) ?? .none)
  }

  /// The pair expense `id` is one side of, if any.
  static func pair(_ db: Database, of id: Int64) throws -> TransferPair? {
    try Row.fetchOne(db, sql: pairColumns + " WHERE outId = ? OR inId = ?", arguments: [id, id])
      .map(transferPair(from:))
  }

  public func transferPairs() throws -> [TransferPair] {
    try read { db in
      try Row.fetchAll(db, sql: AppDatabase.pairColumns + " ORDER BY rowid").map(AppDatabase.transferPair(from:))
    }
  }

  public func unpairTransfer(id: Int64) throws -> TransferPair {
    try write { db in
      guard let pair = try AppDatabase.pair(db, of: id) else { throw StoreError.notPaired(id) }
      try AppDatabase.dissolve(db, pair, keeping: [pair.outId, pair.inId])
      return pair
    }
  }

  /// Dissolves the pairs of these ids (rows about to be deleted): the other side of each, when
  /// it stays, gets its category back.
  static func dissolvePairs(_ db: Database, of ids: [Int64]) throws {
    let going = Set(ids)
    for id in ids {
      guard let pair = try pair(db, of: id) else { continue }
      try dissolve(db, pair, keeping: [pair.outId, pair.inId].filter { !going.contains($0) })
    }
  }

  /// Dissolves the pairs whose rows have ids in `range` (an import being removed).
  static func dissolvePairs(_ db: Database, inRange range: ClosedRange<Int64>) throws {
    let pairs = try Row.fetchAll(
      db, sql: pairColumns + " WHERE outId BETWEEN ? AND ? OR inId BETWEEN ? AND ?",
      arguments: [range.lowerBound, range.upperBound, range.lowerBound, range.upperBound]
    ).map(transferPair(from:))
    for pair in pairs {
      try dissolve(db, pair, keeping: [pair.outId, pair.inId].filter { !range.contains($0) })
    }
  }

  /// Deletes `pair` and gives the rows in `keeping` the category they had before it, if they
  /// are still in the pair's (a category changed by hand since stays).
  private static func dissolve(_ db: Database, _ pair: TransferPair, keeping: [Int64]) throws {
    try db.execute(sql: "DELETE FROM transferPair WHERE outId = ?", arguments: [pair.outId])
    var totals = MonthTotalDeltas()
    for id in keeping {
      guard let row = try storedRow(db, id: id), row.source == .transfer else { continue }
      let (category, source) =
        id == pair.outId ? (pair.outCategory, pair.outSource) : (pair.inCategory, pair.inSource)
      try db.execute(
        sql: "UPDATE expense SET category = ?, categorySource = ? WHERE key = ?",
        arguments: [category, (category == nil ? CategorySource.none : source).rawValue, row.key])
      totals.remove(date: row.expense.date, amount: row.expense.amount, category: row.expense.category)
      try totals.add(date: row.expense.date, amount: row.expense.amount, category: category)
    }
    try totals.apply(db)
  }
}

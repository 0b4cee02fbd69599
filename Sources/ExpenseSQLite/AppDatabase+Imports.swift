import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// The import records and `imports remove`: an import is undone by the id range it recorded.
extension AppDatabase {
  /// The recorded imports, oldest first.
  public func imports() throws(StoreError) -> [ImportRecord] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, file, importedAt, rows, firstId, lastId, firstDate, lastDate FROM importRecord ORDER BY id"
      ).map { row in
        ImportRecord(
          id: row["id"], file: row["file"], importedAt: row["importedAt"], rows: row["rows"],
          firstId: row["firstId"], lastId: row["lastId"], firstDate: try CivilDate.parseStored(row["firstDate"]),
          lastDate: try CivilDate.parseStored(row["lastDate"]))
      }
    }
  }

  /// Takes out exactly the rows import `id` added (those still there: rows deleted since are
  /// gone already, edited ones keep their id and go too) and forgets the import. Returns how
  /// many rows were removed.
  @discardableResult
  public func removeImport(id: Int64) throws -> Int {
    try write { db in
      guard
        let record = try Row.fetchOne(
          db, sql: "SELECT firstId, lastId FROM importRecord WHERE id = ?", arguments: [id])
      else { throw StoreError.importNotFound(id) }
      let range: [Int64] = [record["firstId"], record["lastId"]]
      if range[0] <= range[1] { try AppDatabase.dissolvePairs(db, inRange: range[0]...range[1]) }
      var totals = MonthTotalDeltas()
      // Each run of the import's ids is one day: read that day's keys, keep the run's ids.
      let runs = try Row.fetchAll(
        db, sql: "SELECT firstId, lastId, day FROM idRun WHERE firstId BETWEEN ? AND ?",
        arguments: StatementArguments(range))
      let inRun = " WHERE key BETWEEN ? AND ? AND id BETWEEN ? AND ?"
      let select = try db.makeStatement(sql: "SELECT date, amountMinor, currency, category FROM expense" + inRun)
      // The table, not the view: one statement for the run, and its count of deleted rows.
      let delete = try db.makeStatement(sql: "DELETE FROM expenseRow" + inRun)
      var removed = 0
      for run in runs {
        let keys = ExpenseKey.range(day: run["day"])
        let arguments: StatementArguments = [keys.lowerBound, keys.upperBound, run["firstId"], run["lastId"]]
        let rows = try Row.fetchCursor(select, arguments: arguments)
        while let row = try rows.next() {
          guard let currency = Currency(code: row["currency"]) else { continue }
          totals.remove(
            date: try CivilDate.parseStored(row["date"]), amount: Money(minor: row["amountMinor"], currency: currency),
            category: row["category"])
        }
        try delete.execute(arguments: arguments)
        removed += db.changesCount
      }
      try db.execute(sql: "DELETE FROM idRun WHERE firstId BETWEEN ? AND ?", arguments: StatementArguments(range))
      try db.execute(sql: "DELETE FROM splitPart WHERE id BETWEEN ? AND ?", arguments: StatementArguments(range))
      try totals.apply(db)
      // The id stays spent: the counter moves past it before its record goes.
      try AppDatabase.saveNextImportID(db, AppDatabase.nextImportID(db))
      try db.execute(sql: "DELETE FROM importRecord WHERE id = ?", arguments: [id])
      return removed
    }
  }
}

import ExpenseCore
import ExpenseStore
import GRDB

/// Rows as stored, read for the history and put back by an undo (`LedgerStore.rowSnapshot`,
/// `restoreRows`). A row comes back under its own id and key: its id's run is placed again
/// (`IdRuns.place`) and the rollup moves by exactly the rows restored.
extension AppDatabase {
  public func rowSnapshot(ids: [Int64]) throws -> RowSnapshot {
    try read { db in try AppDatabase.rowSnapshot(db, ids: ids) }
  }

  static func rowSnapshot(_ db: Database, ids: [Int64]) throws -> RowSnapshot {
    var snapshot = RowSnapshot()
    var seen = Set<Int64>()
    var pairs = Set<Int64>()
    var queue = ids
    while let id = queue.popLast() {
      guard seen.insert(id).inserted, let key = try IdRuns.key(db, id: id),
        let row = try Row.fetchOne(db, sql: rowColumns + " WHERE e.key = ?", arguments: [key])
      else { continue }
      let expense = try expense(from: row)
      let stored = StoredExpense(
        key: key, id: id, date: expense.date, amount: expense.amount, description: expense.description,
        category: expense.category, account: expense.account, sourceFile: row["sourceFile"],
        sourceLine: row["sourceLine"], categorySource: (row["categorySource"] as Int?) ?? 0)
      let set = try Int64.fetchOne(db, sql: "SELECT setId FROM splitPart WHERE id = ?", arguments: [id])
      snapshot.rows.append(SnapshotRow(row: stored, splitSet: set))
      if set != nil { queue += try splitParts(db, of: id) ?? [] }
      if let pair = try pair(db, of: id), pairs.insert(pair.outId).inserted {
        snapshot.pairs.append(pair)
        queue += [pair.outId, pair.inId]
      }
    }
    snapshot.rows.sort { $0.row.id < $1.row.id }
    return snapshot
  }

  public func restoreRows(_ snapshot: RowSnapshot) throws {
    try write { db in
      var totals = MonthTotalDeltas()
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO expense (key, id, date, amountMinor, currency, description, category, account, fileId,
                               sourceLine, categorySource)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      for part in snapshot.rows {
        let row = part.row
        if try IdRuns.key(db, id: row.id) != nil { throw StoreError.keyTaken(id: row.id, holder: row.id) }
        if let holder = try Int64.fetchOne(db, sql: "SELECT id FROM expense WHERE key = ?", arguments: [row.key]) {
          throw StoreError.keyTaken(id: row.id, holder: holder)
        }
        var file: Int64?
        if let name = row.sourceFile {
          try db.execute(sql: "INSERT OR IGNORE INTO importFile (name) VALUES (?)", arguments: [name])
          file = try Int64.fetchOne(db, sql: "SELECT id FROM importFile WHERE name = ?", arguments: [name])
        }
        try insert.execute(arguments: [
          row.key, row.id, row.date.description, row.amount.minor, row.amount.currency.code, row.description,
          row.category, row.account, file, row.sourceLine, row.categorySource,
        ])
        try IdRuns.place(db, id: row.id, day: ExpenseKey(rawValue: row.key).day)
        if let set = part.splitSet {
          try db.execute(sql: "INSERT INTO splitPart (id, setId) VALUES (?, ?)", arguments: [row.id, set])
        }
        try totals.add(date: row.date, amount: row.amount, category: row.category)
      }
      for pair in snapshot.pairs where try AppDatabase.pair(db, of: pair.outId) == nil {
        try db.execute(
          sql: """
            INSERT INTO transferPair (outId, inId, outCategory, outSource, inCategory, inSource)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            pair.outId, pair.inId, pair.outCategory, pair.outSource.rawValue, pair.inCategory, pair.inSource.rawValue,
          ])
      }
      for record in snapshot.imports {
        try db.execute(
          sql: """
            INSERT OR IGNORE INTO importRecord (id, file, importedAt, rows, firstId, lastId, firstDate, lastDate)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            record.id, record.file, record.importedAt, record.rows, record.firstId, record.lastId,
            record.firstDate.description, record.lastDate.description,
          ])
      }
      try totals.apply(db)
    }
  }
}

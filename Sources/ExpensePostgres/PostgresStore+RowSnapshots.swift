import ExpenseCore
import ExpenseStore
import PostgresNIO

/// Rows as stored, read for the history and put back by an undo (the rollup follows by trigger).
extension PostgresStore {
  public func rowSnapshot(ids: [Int64]) throws -> RowSnapshot {
    try read { connection in
      var snapshot = RowSnapshot()
      var seen = Set<Int64>()
      var queue = ids
      var pairs = Set<Int64>()
      while let id = queue.popLast() {
        guard seen.insert(id).inserted, let stored = try storedRow(connection, id: id) else { continue }
        let expense = stored.expense
        let set = try connection.query(
          "SELECT set_id FROM split_part WHERE ledger_id = \(ledger) AND id = \(id)"
        ).first.map { try $0.decode(Int64.self) }
        let row = StoredExpense(
          key: stored.key, id: id, date: expense.date, amount: expense.amount, description: expense.description,
          category: expense.category, account: expense.account, sourceFile: expense.source?.file,
          sourceLine: expense.source.map { Int64($0.line) }, categorySource: stored.source.rawValue)
        snapshot.rows.append(SnapshotRow(row: row, splitSet: set))
        if set != nil { queue += try splitParts(connection, of: id) ?? [] }
        for pair in try self.pairs(connection, of: [id]) where pairs.insert(pair.outId).inserted {
          snapshot.pairs.append(pair)
          queue += [pair.outId, pair.inId]
        }
      }
      snapshot.rows.sort { $0.row.id < $1.row.id }
      return snapshot
    }
  }

  public func restoreRows(_ snapshot: RowSnapshot) throws {
    try write { connection in
      for part in snapshot.rows {
        let row = part.row
        let holders = try connection.query(
          """
          SELECT id FROM expense WHERE ledger_id = \(ledger)
            AND (key = expense_key_of(\(ledger), \(row.id)) OR key = \(row.key)) LIMIT 1
          """)
        if let holder = try holders.first.map({ try $0.decode(Int64.self) }) {
          throw StoreError.keyTaken(id: row.id, holder: holder)
        }
        let file = try row.sourceFile.map { try fileID(connection, name: $0) }
        try connection.query(
          """
          INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, category, account,
                               file_id, source_line, category_source)
          VALUES (\(ledger), \(row.key), \(row.id), \(row.date.description)::date, \(row.amount.minor),
                  \(row.amount.currency.code), \(row.description), \(row.category), \(row.account),
                  \(file), \(row.sourceLine), \(Int16(clamping: row.categorySource)))
          """)
        try PostgresIdRuns.place(connection, ledger: ledger, id: row.id, day: ExpenseKey(rawValue: row.key).day)
        if let set = part.splitSet {
          try connection.query("INSERT INTO split_part (ledger_id, id, set_id) VALUES (\(ledger), \(row.id), \(set))")
        }
      }
      for pair in snapshot.pairs {
        try connection.query(
          """
          INSERT INTO transfer_pair (ledger_id, out_id, in_id, out_category, out_source, in_category, in_source)
          VALUES (\(ledger), \(pair.outId), \(pair.inId), \(pair.outCategory), \(Int16(pair.outSource.rawValue)),
                  \(pair.inCategory), \(Int16(pair.inSource.rawValue)))
          ON CONFLICT DO NOTHING
          """)
      }
      for record in snapshot.imports {
        try connection.query(
          """
          INSERT INTO import_record (ledger_id, id, file, imported_at, rows, first_id, last_id, first_date, last_date)
          VALUES (\(ledger), \(record.id), \(record.file), \(record.importedAt), \(Int64(record.rows)),
                  \(record.firstId), \(record.lastId), \(record.firstDate.description)::date,
                  \(record.lastDate.description)::date)
          ON CONFLICT DO NOTHING
          """)
      }
    }
  }
}

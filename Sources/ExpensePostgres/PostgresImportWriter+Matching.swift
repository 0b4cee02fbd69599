import ExpenseCore
import ExpenseStore
import PostgresNIO

/// What the service's matching of an import's rows asks of the writer (see `ImportWriter`),
/// in the import's transaction. The rows gathered for the next `COPY` are stored first, so
/// that what is read and changed is every row of the file.
extension PostgresImportWriter {
  /// The first and last day of the ledger's rows: the ends of its key index.
  static func storedSpan(_ connection: BlockingConnection, ledger: Int64) throws -> ClosedRange<CivilDate>? {
    let rows = try connection.query("SELECT MIN(key), MAX(key) FROM expense WHERE ledger_id = \(ledger)")
    guard let (low, high) = try rows.first?.decode((Int64?, Int64?).self), let low, let high else { return nil }
    let (first, last) = (ExpenseKey(rawValue: low).date, ExpenseKey(rawValue: high).date)
    return first <= last ? first...last : nil
  }

  func storeWritten() throws {
    try flush()
    try settle()
  }

  func neighbours(from first: CivilDate, through last: CivilDate, magnitudes: Set<Int64>) throws -> [NeighbourRow] {
    guard first <= last, !magnitudes.isEmpty else { return [] }
    try storeWritten()
    let keys = ExpenseKey.range(from: first, through: last)
    let query = PostgresQuery(
      unsafeSQL: PostgresStore.expenseColumns
        + " WHERE e.ledger_id = $1 AND e.key BETWEEN $2 AND $3 AND e.id < $4 AND abs(e.amount_minor) = ANY($5)",
      binds: try store.binds(store.ledger, keys.lowerBound, keys.upperBound, firstID, Array(magnitudes)))
    let rows = try connection.query(query).map(store.storedRow)
    let ids = rows.compactMap(\.expense.id)
    var paired = Set<Int64>()
    if !ids.isEmpty {
      for row in try connection.query(
        """
        SELECT out_id, in_id FROM transfer_pair
        WHERE ledger_id = \(store.ledger) AND (out_id = ANY(\(ids)) OR in_id = ANY(\(ids)))
        """)
      {
        let (a, b) = try row.decode((Int64, Int64).self)
        paired.insert(a)
        paired.insert(b)
      }
    }
    return rows.compactMap { row in
      guard let id = row.expense.id else { return nil }
      return NeighbourRow(
        key: row.key, id: id, date: row.expense.date, amount: row.expense.amount,
        description: row.expense.description, account: row.expense.account, category: row.expense.category,
        categorySource: row.source, source: row.expense.source, paired: paired.contains(id))
    }
  }

  func withdraw(keys: [Int64]) throws {
    guard !keys.isEmpty else { return }
    try storeWritten()
    if dryRun {
      inserted -= keys.count
      return
    }
    let removed = try connection.query(
      "DELETE FROM expense WHERE ledger_id = \(store.ledger) AND key = ANY(\(keys)) AND id >= \(firstID)")
    inserted -= removed.metadata.rows ?? 0
  }

  func pairTransfers(_ links: [TransferLink], category: String) throws {
    guard !dryRun, !links.isEmpty else { return }
    try storeWritten()
    for link in links {
      let query = PostgresQuery(
        unsafeSQL: PostgresStore.expenseColumns + " WHERE e.ledger_id = $1 AND e.key = ANY($2)",
        binds: try store.binds(store.ledger, [link.outKey, link.inKey]))
      let rows = try connection.query(query).map(store.storedRow)
      guard let out = rows.first(where: { $0.key == link.outKey }),
        let into = rows.first(where: { $0.key == link.inKey }),
        let outID = out.expense.id, let inID = into.expense.id
      else { continue }
      try connection.query(
        """
        INSERT INTO transfer_pair (ledger_id, out_id, in_id, out_category, out_source, in_category, in_source)
        VALUES (\(store.ledger), \(outID), \(inID), \(out.expense.category), \(Int16(out.source.rawValue)),
                \(into.expense.category), \(Int16(into.source.rawValue)))
        """)
      try connection.query(
        """
        UPDATE expense SET category = \(category), category_source = \(Int16(CategorySource.transfer.rawValue))
        WHERE ledger_id = \(store.ledger) AND key = ANY(\([link.outKey, link.inKey]))
        """)
    }
  }
}

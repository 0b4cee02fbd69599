import ExpenseStore
import GRDB

extension MonthTotalDeltas {
  /// Adds the sums to `monthTotal`, creating the rows that do not exist yet and deleting the
  /// ones whose count falls to zero (so a month or category with no row left is gone from the
  /// report, its history start and the category list); throws `TotalOverflow` (and the
  /// caller's transaction rolls back) when a stored sum passes `limit`. Both sides are at most
  /// `limit`, so SQLite's addition itself cannot overflow; a sum past the limit is written as
  /// NULL, which the NOT NULL column refuses (a `RETURNING` or a read-back of each row cost
  /// more than the upserts themselves).
  ///
  /// Up to `rowsPerStatement` sums go in one statement: each statement that may fail half-way
  /// keeps a statement journal of the pages it changes, and one upsert a sum wrote the same
  /// few pages of the table to it again for every sum (3,000 sums of a million rows: 138 MB
  /// written to a temporary file, by `strace`). A statement refused for a sum past the limit is
  /// undone whole; the sum that passed it is then found by reading the table (`overflow`).
  func apply(_ db: Database) throws {
    let rows = sums.filter { !$0.value.isZero }.map { (key: $0.key, sums: $0.value) }
    var start = 0
    while start < rows.count {
      let chunk = rows[start..<min(start + Self.rowsPerStatement, rows.count)]
      start += chunk.count
      var arguments: [(any DatabaseValueConvertible)?] = []
      arguments.reserveCapacity(chunk.count * 8)
      for (key, sums) in chunk {
        let (month, currency) = MonthTotalDeltas.monthAndCurrency(key)
        arguments += [
          month, currency, categories[Int(key & 0x3F_FFFF)], sums.outflow, sums.inflow, sums.count, sums.inflowCount,
          sums.daily.isEmpty ? nil : DailyOutflow.encode(sums.daily),
        ]
      }
      let upsert = try db.cachedStatement(sql: Self.upsert(rows: chunk.count))
      do {
        try upsert.execute(arguments: StatementArguments(arguments))
      } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL {
        throw try overflow(in: chunk, db) ?? error
      }
      let dropEmpty = try db.cachedStatement(
        sql: "DELETE FROM monthTotal WHERE month = ? AND currency = ? AND category = ? AND count <= 0")
      for (key, sums) in chunk where sums.count < 0 {
        let (month, currency) = MonthTotalDeltas.monthAndCurrency(key)
        try dropEmpty.execute(arguments: [month, currency, categories[Int(key & 0x3F_FFFF)]])
      }
    }
  }

  /// Sums a statement takes (8 parameters each, far below SQLite's limit of 32,766).
  static let rowsPerStatement = 1_000

  /// The upsert of `rows` sums.
  static func upsert(rows: Int) -> String {
    """
    INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount, daily)
    VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", "))
    ON CONFLICT (month, currency, category) DO UPDATE SET
      outflow = CASE WHEN outflow + excluded.outflow <= \(MonthTotalDeltas.limit)
        THEN outflow + excluded.outflow END,
      inflow = CASE WHEN inflow + excluded.inflow <= \(MonthTotalDeltas.limit) THEN inflow + excluded.inflow END,
      count = count + excluded.count,
      inflowCount = inflowCount + excluded.inflowCount, daily = addDaily(daily, excluded.daily)
    """
  }

  /// The sum of `chunk` that would pass `limit` once added to the table (read as the refused
  /// statement left it: as before it).
  private func overflow(in chunk: ArraySlice<(key: Int64, sums: Sums)>, _ db: Database) throws -> TotalOverflow? {
    let stored = try db.cachedStatement(
      sql: "SELECT outflow, inflow FROM monthTotal WHERE month = ? AND currency = ? AND category = ?")
    for (key, sums) in chunk {
      let (month, currency) = MonthTotalDeltas.monthAndCurrency(key)
      let category = categories[Int(key & 0x3F_FFFF)]
      let row = try Row.fetchOne(stored, arguments: [month, currency, category])
      let outflow = (row?[0] as Int64? ?? 0).addingReportingOverflow(sums.outflow)
      let inflow = (row?[1] as Int64? ?? 0).addingReportingOverflow(sums.inflow)
      if outflow.overflow || inflow.overflow || outflow.partialValue > MonthTotalDeltas.limit
        || inflow.partialValue > MonthTotalDeltas.limit
      {
        return TotalOverflow(
          line: nil, month: month, currency: currency, category: category.isEmpty ? nil : category, amount: nil)
      }
    }
    return nil
  }

}

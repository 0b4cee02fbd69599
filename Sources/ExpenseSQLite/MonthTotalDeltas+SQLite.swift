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
  func apply(_ db: Database) throws {
    let upsert = try db.makeStatement(
      sql: """
        INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount, daily)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (month, currency, category) DO UPDATE SET
          outflow = CASE WHEN outflow + excluded.outflow <= \(MonthTotalDeltas.limit)
            THEN outflow + excluded.outflow END,
          inflow = CASE WHEN inflow + excluded.inflow <= \(MonthTotalDeltas.limit) THEN inflow + excluded.inflow END,
          count = count + excluded.count,
          inflowCount = inflowCount + excluded.inflowCount, daily = addDaily(daily, excluded.daily)
        """)
    let dropEmpty = try db.makeStatement(
      sql: "DELETE FROM monthTotal WHERE month = ? AND currency = ? AND category = ? AND count <= 0")
    for (key, sums) in sums where !sums.isZero {
      let (month, currency) = MonthTotalDeltas.monthAndCurrency(key)
      let category = categories[Int(key & 0x3F_FFFF)]
      do {
        try upsert.execute(arguments: [
          month, currency, category, sums.outflow, sums.inflow, sums.count, sums.inflowCount,
          sums.daily.isEmpty ? nil : DailyOutflow.encode(sums.daily),
        ])
      } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL {
        throw TotalOverflow(
          line: nil, month: month, currency: currency, category: category.isEmpty ? nil : category, amount: nil)
      }
      if sums.count < 0 { try dropEmpty.execute(arguments: [month, currency, category]) }
    }
  }
}

import ExpenseCore
import ExpenseStore
import PostgresNIO

/// What reports read: the `month_total` rollup only (the cost follows the categories, not the rows).
extension PostgresStore {
  public func monthlyTotals(from requestedFirst: Month, through requestedLast: Month, daily: Bool) throws
    -> [CategoryMonthTotal]
  {
    guard let months = Month.supported(from: requestedFirst, through: requestedLast) else { return [] }
    let (first, last) = (months.lowerBound, months.upperBound)
    return try read { connection in
      // Text sorts byte by byte (COLLATE "C"), as in SQLite, whatever the database's locale.
      let rows = try connection.query(
        """
        SELECT to_char(month, 'YYYY-MM'), currency, category, outflow, inflow, count, inflow_count, daily
        FROM month_total
        WHERE ledger_id = \(ledger) AND month BETWEEN \(first.firstDay.description)::date
          AND \(last.firstDay.description)::date
        ORDER BY month, currency COLLATE "C", category COLLATE "C"
        """)
      return try rows.compactMap { row -> CategoryMonthTotal? in
        let (month, code, category, outflow, inflow, count, inflowCount, days) = try row.decode(
          (String, String, String, Int64, Int64, Int64, Int64, [Int64]).self)
        guard let currency = Currency(code: code) else { return nil }
        return CategoryMonthTotal(
          currency: currency, category: category.isEmpty ? nil : category, month: try Month.parseStored(month),
          outflowMinor: outflow, inflowMinor: inflow, count: Int(clamping: count),
          inflowCount: Int(clamping: inflowCount), dailyOutflowMinor: daily ? days : nil)
      }
    }
  }

  public func historyStart() throws -> [Currency: Month] {
    try snapshotRead("historyStart") { connection in
      let rows = try connection.query(
        """
        SELECT currency, to_char(MIN(month), 'YYYY-MM') FROM month_total
        WHERE ledger_id = \(ledger) AND month BETWEEN \(Month.supportedRange.lowerBound.firstDay.description)::date
          AND \(Month.supportedRange.upperBound.firstDay.description)::date
        GROUP BY currency
        """)
      var result: [Currency: Month] = [:]
      for row in rows {
        let (code, first) = try row.decode((String, String).self)
        if let currency = Currency(code: code), let month = try? Month.parse(first) { result[currency] = month }
      }
      return result
    }
  }

  public func latestMonth() throws -> Month? {
    let keys = ExpenseKey.range(from: CivilDate.supportedRange.lowerBound, through: CivilDate.supportedRange.upperBound)
    return try read { connection in
      let rows = try connection.query(
        """
        SELECT to_char(date, 'YYYY-MM-DD') FROM expense
        WHERE ledger_id = \(ledger) AND key BETWEEN \(keys.lowerBound) AND \(keys.upperBound)
        ORDER BY key DESC LIMIT 1
        """)
      return try rows.first.map { try CivilDate.parseStored(try $0.decode(String.self)).calendarMonth }
    }
  }
}

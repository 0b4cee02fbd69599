import ExpenseCore
import ExpenseStore

/// What reports read, summed from the rows on each call (no rollup is kept, so none can be
/// out of step) by the same arithmetic the other stores' rollups use (`MonthTotalDeltas.Sums`).
extension MemoryStore {
  public func monthlyTotals(from requestedFirst: Month, through requestedLast: Month, daily: Bool) throws
    -> [CategoryMonthTotal]
  {
    guard let months = Month.supported(from: requestedFirst, through: requestedLast) else { return [] }
    let (first, last) = (months.lowerBound, months.upperBound)
    return try read { state in
      var sums: [Cell: MonthTotalDeltas.Sums] = [:]
      for row in state.rows.values {
        let month = row.date.calendarMonth
        guard month >= first, month <= last else { continue }
        let cell = Cell(month: month, currency: row.amount.currency.code, category: row.category ?? "")
        guard sums[cell, default: MonthTotalDeltas.Sums()].record(row.amount.minor, day: row.date.day) else {
          throw TotalOverflow(
            line: nil, month: month.description, currency: cell.currency, category: row.category, amount: nil)
        }
      }
      return sums.sorted { $0.key < $1.key }.compactMap { cell, sums -> CategoryMonthTotal? in
        guard let currency = Currency(code: cell.currency) else { return nil }
        return CategoryMonthTotal(
          currency: currency, category: cell.category.isEmpty ? nil : cell.category, month: cell.month,
          outflowMinor: sums.outflow, inflowMinor: sums.inflow, count: Int(clamping: sums.count),
          inflowCount: Int(clamping: sums.inflowCount),
          dailyOutflowMinor: daily
            ? (sums.daily.isEmpty ? [Int64](repeating: 0, count: DailyOutflow.days) : sums.daily) : nil)
      }
    }
  }

  /// One sum of `monthlyTotals`, ordered as the other stores order them: by month, then
  /// currency and category byte by byte (uncategorized first).
  struct Cell: Hashable, Comparable {
    var month: Month
    var currency: String
    var category: String

    static func < (a: Cell, b: Cell) -> Bool {
      if a.month != b.month { return a.month < b.month }
      if a.currency != b.currency { return MemoryLedger.byBytes(a.currency, b.currency) }
      return MemoryLedger.byBytes(a.category, b.category)
    }
  }

  public func historyStart() throws -> [Currency: Month] {
    try read { state in
      var result: [Currency: Month] = [:]
      for row in state.rows.values {
        let month = row.date.calendarMonth
        guard Month.supportedRange.contains(month) else { continue }
        if result[row.amount.currency].map({ month < $0 }) ?? true { result[row.amount.currency] = month }
      }
      return result
    }
  }

  public func latestMonth() throws -> Month? {
    try read { state in
      state.rows.values.lazy.map(\.date).filter { CivilDate.supportedRange.contains($0) }.max()?.calendarMonth
    }
  }
}

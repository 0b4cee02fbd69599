/// Pace and projection from the shape of a category's months.
///
/// Why not linear: rent paid on the 1st is 100 % spent on day 1, so "budget × elapsed share"
/// calls it over pace all month and "spent ÷ days × month" projects it to 31 rents. Each
/// category's own trailing months say how much of a month's spending is usually done by day d;
/// a category without such months falls back to linear and says so (`ProjectionBasis`).
extension BenchmarkCalculator {
  /// How many complete months before the report month a category's shape is read from.
  public static let shapeMonths = 6

  /// Pace, projection and where they come from, for one row.
  struct Projection {
    var pace: Int64?
    var projected: Int64
    var basis: ProjectionBasis
  }

  /// The months a category's shape is read from: up to `shapeMonths` before `month`, none
  /// before the currency's history starts and none from today's month on (only complete months).
  func shapeWindow(for month: Month, start: Month?) -> [Month] {
    guard let start else { return [] }
    return (1...BenchmarkCalculator.shapeMonths).map { month.adding(months: -$0) }
      .filter { $0 >= start && $0 < today.calendarMonth }
  }

  /// The day of `other` that corresponds to day `day` of a month of `length` days: the same
  /// elapsed share of the month, rounded half up, at least 1 and at most the month's length.
  /// Day 20 of October (31 days) is day 19 of September (30 × 20 / 31 = 19.35).
  public static func correspondingDay(_ day: Int, of length: Int, in other: Month) -> Int {
    let otherLength = other.dayCount
    return min(otherLength, max(1, (2 * day * otherLength + length) / (2 * length)))
  }

  /// Pace and projection of one category on day `daysElapsed` of `month`, spent `spent` so far.
  ///
  /// With history (trailing months in which the category spent money, with their day-by-day
  /// outflows): let `by` be the money spent up to the corresponding day of each such month and
  /// `all` the whole months' outflows, summed over the months. Then
  /// - pace = budget × by ÷ all (what should be spent by today, given the usual shape);
  /// - projection = spent + (all − by) ÷ months (what is usually still to come), so rent paid
  ///   on the 1st projects to what was paid, and a category never projects below its spending.
  /// Without: pace = budget × d ÷ days in month, projection = spent × days ÷ d (not below spent).
  func project(spent: Int64, budget: Int64?, history: [CategoryMonthTotal], month: Month, daysElapsed: Int)
    -> Projection
  {
    var by: Int128 = 0
    var all: Int128 = 0
    var months = 0
    for total in history {
      guard let daily = total.dailyOutflowMinor, total.outflowMinor > 0 else { continue }
      let cutoff = BenchmarkCalculator.correspondingDay(daysElapsed, of: month.dayCount, in: total.month)
      var through: Int128 = 0
      var whole: Int128 = 0
      for (index, amount) in daily.enumerated() {
        whole += Int128(amount)
        if index < cutoff { through += Int128(amount) }
      }
      guard whole > 0 else { continue }
      by += through
      all += whole
      months += 1
    }
    if months > 0 {
      let pace = budget.map { Rounding.clamp(Rounding.divideHalfEven(Int128($0) * by, all)) }
      let rest = Rounding.divideHalfEven(all - by, Int128(months))
      return Projection(pace: pace, projected: Rounding.clamp(Int128(spent) + rest), basis: .history)
    }
    let days = Int64(month.dayCount)
    let pace = budget.map { Rounding.scale($0, by: Int64(daysElapsed), over: days) }
    let linear = Rounding.scale(spent, by: days, over: Int64(daysElapsed))
    return Projection(pace: pace, projected: max(spent, linear), basis: .linear)
  }
}

/// Pace and projection from the shape of a category's months.
///
/// Why not linear: rent paid on the 1st is 100 % spent on day 1, so "budget × elapsed share"
/// calls it over pace all month and "spent ÷ days × month" projects it to 31 rents. Each
/// category's own trailing months say how much of a month's spending is usually done by day d;
/// a category without such months falls back to linear, or, when it has spent on too few days
/// to tell a rate from a one-off, to what it has spent; `ProjectionBasis` says which.
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

  /// Fewer days than this with money out so far, and no history: the category is lumpy as far
  /// as anyone can tell (rent on the 1st, a yearly fee), and nothing is extrapolated.
  public static let linearMinimumDays = 3

  /// Pace and projection of one category on day `daysElapsed` of `month`, spent `spent` so far
  /// (every row of the month, `soFar` saying how much of it is dated after today).
  ///
  /// The rest of the month is what is expected after today, less what is already recorded
  /// after today (never below zero): projection = spent + max(0, rest − later rows). So rows
  /// dated after today are never counted twice, a category never projects below its spending,
  /// and on the month's last day the projection is what was spent.
  ///
  /// - With history (trailing months in which the category spent money, with their day-by-day
  ///   outflows): let `by` be the money spent up to the corresponding day of each such month and
  ///   `all` the whole months' outflows, summed over the months. Pace = budget × by ÷ all (what
  ///   should be spent by today, given the usual shape); rest = (all − by) ÷ months (what usually
  ///   still comes), so rent paid on the 1st projects to what was paid.
  /// - Without, but with money out on at least `linearMinimumDays` days up to today: pace =
  ///   budget × d ÷ days in month; rest = spent by today × (days left ÷ d), spread evenly.
  /// - Without, on fewer days (basis `recorded`): no rest at all, the projection is what is
  ///   spent, and pace is the even share but never below what was spent by today (up to the
  ///   budget): a payment seen once is not a daily rate, so it neither doubles nor counts as
  ///   ahead of pace.
  func project(
    spent: Int64, budget: Int64?, history: [CategoryMonthTotal], soFar: MonthSoFar, month: Month, daysElapsed: Int,
    recurring: RecurringCategory? = nil
  ) -> Projection {
    var projection = shapeProjection(
      spent: spent, budget: budget, history: history, soFar: soFar, month: month, daysElapsed: daysElapsed)
    if let recurring {
      projection.projected = projected(
        spent: spent, history: history, soFar: soFar, month: month, daysElapsed: daysElapsed, recurring: recurring)
    }
    return projection
  }

  /// The projection of a category with recurring payments: spent + what its series still owe
  /// this month + the rest of the month as its other spending (history with the series'
  /// payments taken out, else linear in its other spending) says, less its other rows dated
  /// after today. Pace stays the category's whole shape.
  func projected(
    spent: Int64, history: [CategoryMonthTotal], soFar: MonthSoFar, month: Month, daysElapsed: Int,
    recurring: RecurringCategory
  ) -> Int64 {
    var by: Int128 = 0
    var all: Int128 = 0
    var months = 0
    for total in history {
      guard let daily = total.dailyOutflowMinor else { continue }
      let cutoff = BenchmarkCalculator.correspondingDay(daysElapsed, of: month.dayCount, in: total.month)
      let paid = recurring.paid[total.month] ?? [:]
      var through: Int128 = 0
      var whole: Int128 = 0
      for (index, amount) in daily.enumerated() {
        let other = max(0, Int128(amount) - Int128(paid[index + 1] ?? 0))
        whole += other
        if index < cutoff { through += other }
      }
      guard whole > 0 else { continue }
      by += through
      all += whole
      months += 1
    }
    let paidNow = recurring.paid[month] ?? [:]
    let recurringByToday = paidNow.filter { $0.key <= daysElapsed }.reduce(Int128(0)) { $0 + Int128($1.value) }
    let recurringLater = paidNow.filter { $0.key > daysElapsed }.reduce(Int128(0)) { $0 + Int128($1.value) }
    let otherLater = max(0, soFar.laterOutflow - recurringLater)
    let otherByToday = Int128(spent) - soFar.laterOutflow - recurringByToday
    let otherDays = soFar.spendingDays - paidNow.keys.count { $0 <= daysElapsed }
    var rest: Int128 = 0
    if months > 0 {
      rest = Rounding.divideHalfEven(all - by, Int128(months))
    } else if otherDays >= BenchmarkCalculator.linearMinimumDays, otherByToday > 0 {
      rest = Rounding.divideHalfEven(
        otherByToday * Int128(month.dayCount - daysElapsed), Int128(daysElapsed))
    }
    return Rounding.clamp(Int128(spent) + Int128(recurring.stillDueMinor) + max(0, rest - otherLater))
  }

  /// Pace and projection from the category's whole shape (no recurring payments known).
  func shapeProjection(
    spent: Int64, budget: Int64?, history: [CategoryMonthTotal], soFar: MonthSoFar, month: Month, daysElapsed: Int
  ) -> Projection {
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
    let spentByToday = Int128(spent) - soFar.laterOutflow
    func projected(rest: Int128) -> Int64 {
      Rounding.clamp(Int128(spent) + max(0, rest - soFar.laterOutflow))
    }
    if months > 0 {
      let pace = budget.map { Rounding.share($0, part: by, of: all) }
      let rest = Rounding.divideHalfEven(all - by, Int128(months))
      return Projection(pace: pace, projected: projected(rest: rest), basis: .history)
    }
    let days = Int64(month.dayCount)
    let linearPace = budget.map { Rounding.scale($0, by: Int64(daysElapsed), over: days) }
    if soFar.spendingDays < BenchmarkCalculator.linearMinimumDays {
      // A one-off already paid is on pace by definition: pace is never below what was spent
      // by today (up to the budget); with nothing spent yet it is the even share.
      let pace = budget.map { budget in
        max(linearPace ?? 0, min(budget, Rounding.clamp(max(0, spentByToday))))
      }
      return Projection(pace: pace, projected: spent, basis: .recorded)
    }
    let pace = linearPace
    let rest =
      spentByToday > 0
      ? Rounding.divideHalfEven(spentByToday * Int128(days - Int64(daysElapsed)), Int128(daysElapsed)) : 0
    return Projection(pace: pace, projected: projected(rest: rest), basis: .linear)
  }
}

import ExpenseCore
import Testing

/// The numbers a newcomer sees, hand-computed: a one-off in a first month is not a daily rate,
/// rows dated after today are not counted twice, the headline compares like with like, a
/// category well ahead of its pace says so, percents round once, and months before the data
/// are "no data", not $0.00.
@Suite struct ProjectionRulesTests {
  let october = Month(year: 2026, month: 10)!

  func month(_ raw: String) throws -> Month { try Month.parse(raw) }

  func total(
    _ category: String, _ month: String, out: Int64, count: Int = 1, daily: [Int64]? = nil
  ) throws -> CategoryMonthTotal {
    CategoryMonthTotal(
      currency: .usd, category: category, month: try self.month(month), outflowMinor: out, inflowMinor: 0,
      count: count, dailyOutflowMinor: daily)
  }

  /// A month's day-by-day outflows: `amount` on each of `days` (1-based).
  func daily(_ amount: Int64, on days: [Int]) -> [Int64] {
    (1...31).map { days.contains($0) ? amount : 0 }
  }

  func budget(_ category: String, _ minor: Int64) -> Budget {
    Budget(category: category, amount: Money(minor: minor, currency: .usd))
  }

  func report(today: String, _ totals: [CategoryMonthTotal], budgets: [Budget] = [], start: String = "2026-10")
    throws -> BudgetReport
  {
    BenchmarkCalculator(today: try CivilDate.parse(today)).report(
      for: october, input: .init(totals: totals, budgets: budgets, historyStart: [.usd: try month(start)]))
  }

  func row(_ report: BudgetReport, _ name: String) throws -> CategoryBenchmark {
    try #require(report.groups.flatMap(\.categories).first { $0.category == name })
  }

  @Test func rentSeenOnceInAFirstMonthProjectsToWhatWasPaid() throws {
    // A first month: rent on the 1st, nothing before. Linear would say 150000 × 31 / 15 = 310000.
    let report = try report(
      today: "2026-10-15", [try total("Rent", "2026-10", out: 150_000, daily: daily(150_000, on: [1]))],
      budgets: [budget("Rent", 150_000)])
    let rent = try row(report, "Rent")
    #expect(rent.projectedMinor == 150_000)
    #expect(rent.projectionBasis == .recorded)
    #expect(rent.paceMinor == 150_000)  // what it spent by today, up to its budget: on pace
    #expect(!rent.aheadOfPace)
    #expect(report.groups[0].totals.row.projectionBasis == .recorded)
  }

  @Test func threeDaysOfSpendingAreARate() throws {
    // Groceries on days 2, 5 and 9, 3000 each, today the 10th: 9000 × 31 / 10 = 27900.
    let report = try report(
      today: "2026-10-10", [try total("Groceries", "2026-10", out: 9000, count: 3, daily: daily(3000, on: [2, 5, 9]))])
    let groceries = try row(report, "Groceries")
    #expect(groceries.projectionBasis == .linear)
    #expect(groceries.projectedMinor == 27900)
  }

  @Test func rowsAfterTodayAreNotCountedTwice() throws {
    // History: 1000 a day every day of September. October's rows are all recorded up to the
    // 20th (1000 a day), but today is the 5th.
    let history = try total("Food", "2026-09", out: 30000, count: 30, daily: daily(1000, on: Array(1...30)))
    let october = try total("Food", "2026-10", out: 20000, count: 20, daily: daily(1000, on: Array(1...20)))
    var projections: [Int: Int64] = [:]
    for day in [1, 5, 10, 15, 20, 25, 31] {
      let report = try report(today: "2026-10-\(day < 10 ? "0" : "")\(day)", [history, october], start: "2026-09")
      let food = try row(report, "Food")
      #expect(food.spentMinor == 20000)
      projections[day] = food.projectedMinor
    }
    // Day 5 of 31 is day 5 of September: 25000 usually comes after it; 15000 of that is
    // already recorded (days 6–20), so 10000 is added, not 25000 (which made 45000).
    #expect(projections[5] == 30000)
    // Day 20 of 31 is day 19 of September: 11000 usually comes after; 0 is recorded after today.
    #expect(projections[20] == 31000)
    // Never more than the spent total plus a whole usual month, never below what is spent.
    for (day, projected) in projections { #expect(projected >= 20000 && projected <= 20000 + 30000, "day \(day)") }
    #expect(projections[31] == 20000)  // the last day: what was spent
  }

  @Test func theHeadlineComparesBudgetedSpendingWithTheBudget() throws {
    let report = try report(
      today: "2026-10-20",
      [
        try total("Groceries", "2026-10", out: 30000, count: 10),
        try total("Gifts", "2026-10", out: 50000, count: 3),
      ],
      budgets: [budget("Groceries", 40000)])
    let totals = report.groups[0].totals
    #expect(totals.row.spentMinor == 80000)  // all spending, as before
    #expect(totals.budgetedSpentMinor == 30000)
    #expect(totals.unbudgetedSpentMinor == 50000)
    #expect(totals.row.remainingMinor == 10000)  // 40000 − 30000, not 40000 − 80000
    #expect(totals.row.percentUsed == Percent(part: 30000, of: 40000))  // 75 %, not 200 %
    #expect(totals.row.status == .under)
    #expect(report.groups[0].dailyAllowanceMinor == 909)  // 10000 / 11 days left = 909.09
  }

  @Test func aCategoryWellAheadOfItsPaceIsFlaggedBeforeItIsOver() throws {
    // Day 10 of 31, linear pace of a 31000 budget: 10000. Spent 25000 by today: 81 % used, so
    // "near", and 15000 ahead of pace (> 10 % of the budget, 3100): ahead.
    let ahead = try report(
      today: "2026-10-10",
      [try total("Dining", "2026-10", out: 25000, count: 5, daily: daily(5000, on: [1, 3, 5, 7, 9]))],
      budgets: [budget("Dining", 31000)])
    let dining = try row(ahead, "Dining")
    #expect(dining.status == .near)
    #expect(dining.aheadOfPace)
    #expect(ahead.groups[0].totals.aheadCount == 1)
    // 12000 by day 10: 2000 ahead of pace, under 3100: not flagged.
    let onPace = try report(
      today: "2026-10-10",
      [try total("Dining", "2026-10", out: 12000, count: 4, daily: daily(3000, on: [1, 3, 5, 7]))],
      budgets: [budget("Dining", 31000)])
    #expect(!(try row(onPace, "Dining")).aheadOfPace)
  }

  @Test func percentsRoundOnceHalfToEvenAsHledgerDoes() throws {
    #expect(Percent(part: 6653, of: 10000)?.rounded == 67)  // 66.53 %: was 66 (66.5 → 66)
    #expect(Percent(part: 6653, of: 10000)?.tenths == 665)
    #expect(Percent(part: 665, of: 1000)?.rounded == 66)  // exactly 66.5: to even
    #expect(Percent(part: 675, of: 1000)?.rounded == 68)  // exactly 67.5: to even
    #expect(Percent(part: 66_549, of: 100_000)?.rounded == 67)  // 66.549: tenths say 66.5, it is 67
  }

  @Test func monthsBeforeTheDataAreNoData() throws {
    let calculator = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20"))
    let trends = calculator.trends(
      ending: october, totals: [try total("Food", "2026-09", out: 100), try total("Food", "2026-10", out: 200)],
      kinds: [:], historyStart: [.usd: try month("2026-09")])
    let food = try #require(trends.rows.first)
    #expect(food.spentMinor == [0, 0, 0, 0, 100, 200])
    #expect(trends.months.map(food.hasData) == [false, false, false, false, true, true])
  }
}

import ExpenseCore
import Testing

/// Hand-computed cases of the report's rules (docs/report.md). Each expected number is worked out in the
/// comment beside it.
@Suite struct BenchmarkCalculatorTests {
  let october = Month(year: 2026, month: 10)!

  func total(
    _ category: String?, _ month: String, out: Int64, inflow: Int64 = 0, count: Int = 1,
    currency: Currency = .usd
  ) -> CategoryMonthTotal {
    CategoryMonthTotal(
      currency: currency, category: category, month: try! Month.parse(month),
      outflowMinor: out, inflowMinor: inflow, count: count)
  }

  func budget(_ category: String, _ minor: Int64, currency: Currency = .usd, month: String? = nil) -> Budget {
    Budget(
      category: category, amount: Money(minor: minor, currency: currency), month: month.map { try! Month.parse($0) })
  }

  func row(_ report: BudgetReport, _ name: String) throws -> CategoryBenchmark {
    try #require(report.groups.flatMap(\.categories).first { $0.category == name })
  }

  @Test func overNearUnderWithPaceAndProjection() throws {
    let calculator = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20"))
    let report = calculator.report(
      for: october,
      input: .init(
        totals: [
          total("Dining out", "2026-10", out: 16840, count: 7),
          total("Groceries", "2026-10", out: 32810, count: 9),
          total("Transport", "2026-10", out: 3690, count: 3),
        ],
        budgets: [budget("Dining out", 15000), budget("Groceries", 40000), budget("Transport", 9000)],
        historyStart: [.usd: try Month.parse("2026-01")]))

    let dining = try row(report, "Dining out")
    #expect(dining.status == .over)
    #expect(dining.percentUsed == Percent(tenths: 1123))  // 16840/15000 = 112.266… → 112.3
    #expect(dining.remainingMinor == -1840)
    #expect(dining.paceMinor == 9677)  // 15000 × 20/31 = 9677.4
    #expect(dining.projectedMinor == 26102)  // 16840 × 31/20 = 26102
    let groceries = try row(report, "Groceries")
    #expect(groceries.status == .near)
    #expect(groceries.percentUsed == Percent(tenths: 820))  // 82.025 → 82.0
    #expect(try row(report, "Transport").status == .under)
    // Bad news first.
    #expect(report.groups[0].categories.map(\.category) == ["Dining out", "Groceries", "Transport"])

    let totals = report.groups[0].totals
    #expect(totals.row.spentMinor == 53340)
    #expect(totals.row.budgetMinor == 64000)
    #expect(totals.row.remainingMinor == 10660)
    #expect(totals.overCount == 1 && totals.nearCount == 1 && totals.underCount == 1)
    #expect(report.daysElapsed == 20 && report.daysLeft == 11)
    #expect(report.groups[0].dailyAllowanceMinor == 969)  // 10660 / 11 = 969.09
    #expect(report.expenseCount == 19)
  }

  @Test func noBudgetIsUnbudgeted() throws {
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20")).report(
      for: october, input: .init(totals: [total("Gifts", "2026-10", out: 2500)], budgets: []))
    let gifts = try row(report, "Gifts")
    #expect(gifts.status == .unbudgeted)
    #expect(gifts.budgetMinor == nil && gifts.percentUsed == nil && gifts.remainingMinor == nil)
    #expect(gifts.paceMinor == nil)
    // One row and no history: a one-off, not a rate (2500 × 31/20 = 3875 doubled it).
    #expect(gifts.projectedMinor == 2500)
    #expect(gifts.projectionBasis == .recorded)
    #expect(report.groups[0].totals.row.budgetMinor == nil)
    #expect(report.groups[0].totals.unbudgetedCount == 1)
  }

  @Test func refundLargerThanSpendingGivesNegativeSpent() throws {
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-11-02")).report(
      for: october,
      input: .init(
        totals: [total("Shopping", "2026-10", out: 2000, inflow: 5000, count: 2)],
        budgets: [budget("Shopping", 10000)]))
    let shopping = try row(report, "Shopping")
    #expect(shopping.spentMinor == -3000)
    #expect(shopping.remainingMinor == 13000)
    #expect(shopping.percentUsed == Percent(tenths: 0))  // a credit uses none of the budget, never -30 %
    #expect(shopping.status == .under)
    // A past month has no pace and no projection.
    #expect(shopping.paceMinor == nil && shopping.projectedMinor == nil)
    #expect(report.daysElapsed == nil)
  }

  @Test func monthWithNoDataStillShowsBudgets() throws {
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-10-01")).report(
      for: october, input: .init(totals: [], budgets: [budget("Rent", 120000)]))
    let rent = try row(report, "Rent")
    #expect(rent.spentMinor == 0 && rent.percentUsed == Percent(tenths: 0) && rent.status == .under)
    #expect(rent.paceMinor == 3871)  // 120000 × 1/31 = 3870.97
    #expect(report.expenseCount == 0)

    let empty = BenchmarkCalculator(today: try CivilDate.parse("2026-10-01")).report(
      for: october, input: .init(totals: [], budgets: []))
    #expect(empty.groups.isEmpty)
  }

  @Test func trailingAverageCountsOnlyMonthsOfHistory() throws {
    let totals = [
      total("Dining out", "2026-10", out: 16840),
      total("Dining out", "2026-09", out: 12000),
      total("Dining out", "2026-08", out: 14000),
      total("Dining out", "2026-07", out: 13360),
      total("Dining out", "2026-06", out: 99999),  // outside the three-month window
    ]
    let calculator = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20"))
    let full = calculator.report(
      for: october, input: .init(totals: totals, budgets: [], historyStart: [.usd: try Month.parse("2026-06")]))
    let dining = try row(full, "Dining out")
    #expect(dining.trailingAverageMinor == 13120)  // (12000 + 14000 + 13360) / 3
    #expect(dining.changeFromAveragePercent == Percent(tenths: 284))  // 3720/13120 = 28.35…%

    // History starting in September: the average is September alone, not (12000+0+0)/3.
    let short = calculator.report(
      for: october,
      input: .init(totals: Array(totals.prefix(2)), budgets: [], historyStart: [.usd: try Month.parse("2026-09")]))
    #expect(try row(short, "Dining out").trailingAverageMinor == 12000)

    // First month of history: no average at all.
    let first = calculator.report(
      for: october, input: .init(totals: [totals[0]], budgets: [], historyStart: [.usd: october]))
    #expect(try row(first, "Dining out").trailingAverageMinor == nil)
    #expect(try row(first, "Dining out").changeFromAveragePercent == nil)
  }

  @Test func monthOverrideBeatsDefault() throws {
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-12-01")).report(
      for: october,
      input: .init(
        totals: [total("Travel", "2026-10", out: 50000)],
        budgets: [
          budget("Travel", 20000), budget("Travel", 80000, month: "2026-10"), budget("Travel", 1, month: "2026-11"),
        ]))
    let travel = try row(report, "Travel")
    #expect(travel.budgetMinor == 80000)
    #expect(travel.percentUsed == Percent(tenths: 625))
  }

  @Test func leapFebruaryEndsWithFullPace() throws {
    let february = try Month.parse("2024-02")
    let report = BenchmarkCalculator(today: try CivilDate.parse("2024-02-29")).report(
      for: february, input: .init(totals: [total("Rent", "2024-02", out: 100000)], budgets: [budget("Rent", 100000)]))
    let rent = try row(report, "Rent")
    #expect(report.daysInMonth == 29 && report.daysElapsed == 29 && report.daysLeft == 0)
    #expect(rent.paceMinor == 100000)
    #expect(rent.projectedMinor == 100000)
    #expect(rent.status == .near)  // exactly 100 % is near, not over
    #expect(report.groups[0].dailyAllowanceMinor == nil)

    let day10 = BenchmarkCalculator(today: try CivilDate.parse("2024-02-10")).report(
      for: february, input: .init(totals: [], budgets: [budget("Rent", 29000)]))
    #expect(try row(day10, "Rent").paceMinor == 10000)  // 29000 × 10/29
  }

  @Test func currenciesAreSeparateGroupsAndJPYHasNoDecimals() throws {
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20")).report(
      for: october,
      input: .init(
        totals: [
          total("Food", "2026-10", out: 31500, currency: .jpy),
          total("Food", "2026-10", out: 1000, currency: .usd),
        ],
        budgets: [budget("Food", 30000, currency: .jpy)]))
    #expect(report.groups.map(\.currency) == [.jpy, .usd])
    let yen = report.groups[0].categories[0]
    #expect(yen.status == .over && yen.percentUsed == Percent(tenths: 1050))
    #expect(report.groups[0].totals.row.spentMinor == 31500)  // not 32500: never mixed
    #expect(report.groups[1].totals.row.spentMinor == 1000)
  }

  @Test func incomeIsReportedApartFromSpending() throws {
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20")).report(
      for: october,
      input: .init(
        totals: [total("Salary", "2026-10", out: 0, inflow: 500000), total("Rent", "2026-10", out: 150000)],
        budgets: [], kinds: ["Salary": .income]))
    #expect(report.groups[0].categories.map(\.category) == ["Rent"])
    #expect(report.groups[0].income == [IncomeLine(category: "Salary", amountMinor: 500000)])
    #expect(report.groups[0].totals.row.spentMinor == 150000)
  }

  @Test func thresholdsAreConfigurable() {
    let strict = StatusThresholds(nearPercent: 50, overPercent: 90)
    #expect(strict.status(spent: 50, budget: 100) == .near)
    #expect(strict.status(spent: 91, budget: 100) == .over)
    #expect(strict.status(spent: 49, budget: 100) == .under)
    #expect(StatusThresholds().status(spent: 1, budget: 0) == .over)
    #expect(StatusThresholds().status(spent: 0, budget: 0) == .under)
  }

  @Test func trendsAlignSixMonths() throws {
    let trends = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20")).trends(
      ending: october,
      totals: [
        total("Dining out", "2026-05", out: 100), total("Dining out", "2026-10", out: 300, inflow: 50),
        total("Dining out", "2026-04", out: 999),
      ],
      kinds: [:])
    #expect(trends.months.first?.description == "2026-05")
    #expect(trends.rows.count == 1)
    #expect(trends.rows[0].spentMinor == [100, 0, 0, 0, 0, 250])
  }
}

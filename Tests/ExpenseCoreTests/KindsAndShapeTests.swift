import ExpenseCore
import Testing

/// Hand-computed: kinds of money, shaped pace and projection,
/// averages that name their months, future months, totals that cannot be represented.
@Suite struct KindsAndShapeTests {
  let october = Month(year: 2026, month: 10)!

  func month(_ raw: String) -> Month { try! Month.parse(raw) }

  func total(
    _ category: String?, _ month: String, out: Int64, inflow: Int64 = 0, count: Int = 1, inflowCount: Int = 0,
    daily: [Int64]? = nil
  ) -> CategoryMonthTotal {
    CategoryMonthTotal(
      currency: .usd, category: category, month: self.month(month), outflowMinor: out, inflowMinor: inflow,
      count: count, inflowCount: inflowCount, dailyOutflowMinor: daily)
  }

  /// A month's day-by-day outflows: `amount` on each of `days` (1-based).
  func daily(_ amount: Int64, on days: ClosedRange<Int>) -> [Int64] {
    (1...31).map { days.contains($0) ? amount : 0 }
  }

  func budget(_ category: String, _ minor: Int64) -> Budget {
    Budget(category: category, amount: Money(minor: minor, currency: .usd))
  }

  func row(_ report: BudgetReport, _ name: String) throws -> CategoryBenchmark {
    try #require(report.groups.flatMap(\.categories).first { $0.category == name })
  }

  func report(
    today: String, for month: Month? = nil, _ totals: [CategoryMonthTotal], budgets: [Budget] = [],
    kinds: [String: CategoryKind] = [:], start: String = "2026-01"
  ) throws -> BudgetReport {
    BenchmarkCalculator(today: try CivilDate.parse(today)).report(
      for: month ?? october,
      input: .init(totals: totals, budgets: budgets, kinds: kinds, historyStart: [.usd: self.month(start)]))
  }

  // MARK: Kinds

  @Test func spendingCountsExpenseCategoriesOnly() throws {
    let report = try report(
      today: "2026-10-20",
      [
        total("Groceries", "2026-10", out: 10000, inflow: 1000, count: 3, inflowCount: 1),
        total("Salary", "2026-10", out: 0, inflow: 300_000, count: 1, inflowCount: 1),
        total("Card payment", "2026-10", out: 50000, count: 1),
      ],
      budgets: [budget("Groceries", 40000), budget("Card payment", 1000)],
      kinds: ["Salary": .income, "Card payment": .transfer])
    let group = report.groups[0]
    // Groceries: 10000 out − 1000 refund = 9000. Income and transfers are not rows.
    #expect(group.categories.map(\.category) == ["Groceries"])
    #expect(try row(report, "Groceries").spentMinor == 9000)
    #expect(try row(report, "Groceries").kind == .expense)
    #expect(group.totals.row.spentMinor == 9000)
    #expect(group.totals.row.budgetMinor == 40000)  // a transfer's budget is not spending's
    #expect(group.income == [IncomeLine(category: "Salary", amountMinor: 300_000)])
    #expect(group.transfersMinor == 50000 && group.transferCount == 1)
    #expect(group.unsortedInMinor == 0 && group.unsortedInCount == 0)
  }

  @Test func unsortedMoneyInIsNeverNegativeSpending() throws {
    // The quick start's shape: money out without a category, and a payroll deposit without one.
    let report = try report(
      today: "2026-10-20",
      [
        total(nil, "2026-10", out: 34116, inflow: 312_582, count: 7, inflowCount: 2),
        total("Groceries", "2026-10", out: 8412, count: 1),
      ],
      budgets: [budget("Groceries", 40000)])
    let group = report.groups[0]
    let uncategorized = try row(report, uncategorizedName)
    #expect(uncategorized.spentMinor == 34116)  // outflows only
    #expect(uncategorized.transactionCount == 5)  // 7 rows − 2 money in
    #expect(group.unsortedInMinor == 312_582 && group.unsortedInCount == 2)
    #expect(group.totals.row.spentMinor == 42528)  // 34116 + 8412, positive
    #expect(report.expenseCount == 8)
  }

  @Test func moneyInWithoutCategoryAloneMakesNoUncategorizedRow() throws {
    let report = try report(today: "2026-10-20", [total(nil, "2026-10", out: 0, inflow: 250_000, inflowCount: 1)])
    #expect(report.groups[0].categories.isEmpty)
    #expect(report.groups[0].totals.row.spentMinor == 0)
    #expect(report.groups[0].unsortedInMinor == 250_000 && report.groups[0].unsortedInCount == 1)
  }

  @Test func transfersAreNeitherSpendingNorIncome() throws {
    // `Transfers` (what the importer's built-in patterns store) is a transfer without being told;
    // a kind set by the user wins.
    let report = try report(
      today: "2026-10-20",
      [
        total("Transfers", "2026-10", out: 70000, inflow: 20000, count: 3, inflowCount: 1),
        total("Savings", "2026-10", out: 10000, count: 1),
        total("Dining", "2026-10", out: 2500, count: 1),
      ],
      kinds: ["Savings": .transfer])
    let group = report.groups[0]
    #expect(group.categories.map(\.category) == ["Dining"])
    #expect(group.transfersMinor == 60000)  // 70000 + 10000 out − 20000 in
    #expect(group.transferCount == 4)
    #expect(group.income.isEmpty)
    #expect(group.totals.row.spentMinor == 2500)

    let asExpense = try self.report(
      today: "2026-10-20", [total("Transfers", "2026-10", out: 70000)], kinds: ["Transfers": .expense])
    #expect(try row(asExpense, "Transfers").spentMinor == 70000)
    #expect(asExpense.groups[0].transfersMinor == 0)
  }

  @Test func trendsLeaveOutTransfersAndUnsortedMoneyIn() {
    let trends = BenchmarkCalculator(today: try! CivilDate.parse("2026-10-20")).trends(
      ending: october,
      totals: [
        total("Transfers", "2026-10", out: 70000), total(nil, "2026-10", out: 500, inflow: 9000, count: 2),
      ],
      kinds: [:])
    #expect(trends.rows.map(\.category) == [uncategorizedName])
    #expect(trends.rows[0].spentMinor.last == 500)
  }

  // MARK: Shaped pace and projection

  @Test func rentPaidOnTheFirstIsOnPaceAndProjectsToWhatWasPaid() throws {
    let history = (4...9).map { m in
      total("Rent", "2026-0\(m)", out: 150_000, daily: daily(150_000, on: 1...1))
    }
    let report = try report(
      today: "2026-10-20", history + [total("Rent", "2026-10", out: 150_000, daily: daily(150_000, on: 1...1))],
      budgets: [budget("Rent", 150_000)])
    let rent = try row(report, "Rent")
    // Every month of history was all spent by day 1: pace = the whole budget, nothing to come.
    #expect(rent.paceMinor == 150_000)
    #expect(rent.projectedMinor == 150_000)
    #expect(rent.projectionBasis == .history)
    #expect(rent.spentMinor <= rent.paceMinor!)  // on pace, not over it
  }

  @Test func evenGroceriesProjectAboutLinearly() throws {
    let history = [
      total("Groceries", "2026-07", out: 31000, daily: daily(1000, on: 1...31)),
      total("Groceries", "2026-08", out: 31000, daily: daily(1000, on: 1...31)),
      total("Groceries", "2026-09", out: 30000, daily: daily(1000, on: 1...30)),
    ]
    let report = try report(
      today: "2026-10-20", history + [total("Groceries", "2026-10", out: 20000, count: 20)],
      budgets: [budget("Groceries", 31000)])
    let groceries = try row(report, "Groceries")
    // Day 20 of 31 is day 20 of July and August (20.5 → 20 in integers: (2·20·31 + 31) / 62 = 20)
    // and day 19 of September (19.35). By then: 20000 + 20000 + 19000 = 59000 of 92000.
    #expect(groceries.paceMinor == 19880)  // 31000 × 59000 / 92000 = 19880.4
    #expect(groceries.projectedMinor == 31000)  // 20000 + (92000 − 59000) / 3 = 20000 + 11000
    #expect(groceries.projectionBasis == .history)
  }

  @Test func oneMonthOfHistoryIsEnough() throws {
    let report = try report(
      today: "2026-10-20",
      [
        total("Groceries", "2026-09", out: 30000, daily: daily(1000, on: 1...30)),
        total("Groceries", "2026-10", out: 20000, count: 20),
      ],
      budgets: [budget("Groceries", 31000)], start: "2026-09")
    let groceries = try row(report, "Groceries")
    #expect(groceries.paceMinor == 19633)  // 31000 × 19000 / 30000 = 19633.3
    #expect(groceries.projectedMinor == 31000)  // 20000 + 11000
    #expect(groceries.projectionBasis == .history)
    #expect(groceries.averageMonths == 1 && groceries.trailingAverageMinor == 30000)
  }

  @Test func noHistoryFallsBackToLinearAndSaysSo() throws {
    let report = try report(
      today: "2026-10-20",
      [total("Groceries", "2026-10", out: 20000, count: 20), total("Gifts", "2026-10", out: 1000)],
      budgets: [budget("Groceries", 31000)], start: "2026-10")
    let groceries = try row(report, "Groceries")
    #expect(groceries.paceMinor == 20000)  // 31000 × 20 / 31
    #expect(groceries.projectedMinor == 31000)  // 20000 × 31 / 20
    #expect(groceries.projectionBasis == .linear)
    // Gifts: one row, no history: a one-off, not a rate (basis recorded, nothing added).
    #expect(try row(report, "Gifts").projectedMinor == 1000)
    #expect(try row(report, "Gifts").projectionBasis == .recorded)
    let total = report.groups[0].totals.row
    #expect(total.paceMinor == 20000)  // the budgeted rows' paces
    #expect(total.projectedMinor == 32000)  // 31000 + 1000
    #expect(total.projectionBasis == .linear)
  }

  @Test func aProjectionIsNeverBelowSpent() throws {
    // History said most was spent by now; this month spent more. And a credit stays a credit.
    let report = try report(
      today: "2026-10-20",
      [
        total("Fuel", "2026-09", out: 6000, daily: daily(3000, on: 1...2)),
        total("Fuel", "2026-10", out: 9000),
        total("Shoes", "2026-10", out: 1000, inflow: 5000, count: 2, inflowCount: 1),
      ],
      start: "2026-09")
    #expect(try row(report, "Fuel").projectedMinor == 9000)  // 9000 + (6000 − 6000) / 1
    let shoes = try row(report, "Shoes")
    #expect(shoes.spentMinor == -4000 && shoes.projectedMinor == -4000)  // linear −6200 is below
  }

  @Test func februaryReadsLongerMonthsByShare() throws {
    let february = Month(year: 2027, month: 2)!
    #expect(BenchmarkCalculator.correspondingDay(14, of: 28, in: month("2027-01")) == 16)  // 15.5 → 16
    #expect(BenchmarkCalculator.correspondingDay(28, of: 28, in: month("2027-01")) == 31)
    #expect(BenchmarkCalculator.correspondingDay(1, of: 28, in: month("2027-01")) == 1)
    let report = try report(
      today: "2027-02-14", for: february,
      [
        total("Groceries", "2027-01", out: 31000, daily: daily(1000, on: 1...31)),
        total("Groceries", "2027-02", out: 14000, count: 14),
      ],
      budgets: [budget("Groceries", 28000)], start: "2027-01")
    let groceries = try row(report, "Groceries")
    #expect(groceries.paceMinor == 14452)  // 28000 × 16000 / 31000 = 14451.6
    #expect(groceries.projectedMinor == 29000)  // 14000 + (31000 − 16000)
  }

  @Test func lastDayOfA31DayMonthReadsWholeMonths() throws {
    #expect(BenchmarkCalculator.correspondingDay(31, of: 31, in: month("2026-09")) == 30)
    #expect(BenchmarkCalculator.correspondingDay(30, of: 31, in: month("2026-08")) == 30)
    #expect(BenchmarkCalculator.correspondingDay(20, of: 31, in: month("2026-09")) == 19)
    let report = try report(
      today: "2026-10-31",
      [
        total("Dining", "2026-09", out: 4000, daily: daily(2000, on: 29...30)),
        total("Dining", "2026-10", out: 5000),
      ],
      budgets: [budget("Dining", 6000)], start: "2026-09")
    let dining = try row(report, "Dining")
    #expect(dining.paceMinor == 6000)  // all of September's spending was done by its last day
    #expect(dining.projectedMinor == 5000)
  }

  @Test func nothingUsuallySpentYetProjectsTheUsualMonth() throws {
    // Insurance is paid on the 28th; on the 10th, pace is 0 and the usual payment is still to come.
    let report = try report(
      today: "2026-10-10",
      [
        total("Insurance", "2026-08", out: 9000, daily: daily(9000, on: 28...28)),
        total("Insurance", "2026-09", out: 9000, daily: daily(9000, on: 28...28)),
      ],
      budgets: [budget("Insurance", 9000)], start: "2026-08")
    let insurance = try row(report, "Insurance")
    #expect(insurance.spentMinor == 0)
    #expect(insurance.paceMinor == 0)
    #expect(insurance.projectedMinor == 9000)  // 0 + 18000 / 2
  }

  // MARK: Averages and future months

  @Test func averagesNameTheirMonths() throws {
    let totals = [
      total("Dining", "2026-07", out: 3000), total("Dining", "2026-08", out: 6000),
      total("Dining", "2026-09", out: 9000), total("Dining", "2026-10", out: 1000),
    ]
    let expected: [(String, Int64?, Int?)] = [
      ("2026-10", nil, nil),  // no earlier month: no average
      ("2026-09", 9000, 1),
      ("2026-08", 7500, 2),  // (9000 + 6000) / 2
      ("2026-07", 6000, 3),  // (9000 + 6000 + 3000) / 3
      ("2026-01", 6000, 3),  // never more than three
    ]
    for (start, average, months) in expected {
      let dining = try row(try report(today: "2026-10-20", totals, start: start), "Dining")
      #expect(dining.trailingAverageMinor == average, "history from \(start)")
      #expect(dining.averageMonths == months, "history from \(start)")
    }
  }

  @Test func aMonthAfterTodayHasNoPaceProjectionOrChange() throws {
    let december = Month(year: 2026, month: 12)!
    let report = try report(
      today: "2026-10-20", for: december,
      [total("Dining", "2026-09", out: 9000), total("Dining", "2026-10", out: 1000)],
      budgets: [budget("Dining", 10000)], start: "2026-09")
    let dining = try row(report, "Dining")
    #expect(dining.spentMinor == 0)
    #expect(dining.paceMinor == nil && dining.projectedMinor == nil && dining.projectionBasis == nil)
    #expect(dining.changeFromAveragePercent == nil)  // not "vs avg −100%"
    // Only complete months are a yardstick: September, not October (half over) or November.
    #expect(dining.trailingAverageMinor == 9000 && dining.averageMonths == 1)
    #expect(report.daysElapsed == nil)
  }

  // MARK: Totals that cannot be represented

  @Test func hugeTotalsAreCappedNeverTrappedOrWrapped() throws {
    let report = try report(
      today: "2026-10-20",
      [
        total("A", "2026-10", out: .max), total("B", "2026-10", out: .max),
        total("Salary", "2026-10", out: 0, inflow: .max), total("Bonus", "2026-10", out: 0, inflow: .max),
        total("A", "2026-09", out: .max, daily: daily(.max, on: 1...1)),
        total("A", "2026-08", out: .max, daily: daily(.max, on: 1...1)),
      ],
      budgets: [budget("A", .max), budget("B", .max)], kinds: ["Salary": .income, "Bonus": .income],
      start: "2026-08")
    let group = report.groups[0]
    #expect(group.amountsCapped)
    #expect(group.totals.row.spentMinor == .max)  // 2 × max does not fit: capped, not wrapped to −2
    #expect(group.totals.row.budgetMinor == .max)
    #expect(group.income.map(\.amountMinor) == [.max, .max])
    #expect(try row(report, "A").trailingAverageMinor == .max)  // (max + max) / 2, summed in 128 bits
    #expect(try row(report, "A").projectedMinor == .max)

    let small = try self.report(today: "2026-10-20", [total("A", "2026-10", out: 100)])
    #expect(!small.groups[0].amountsCapped)
  }
}

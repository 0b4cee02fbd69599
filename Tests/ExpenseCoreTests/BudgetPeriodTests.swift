import ExpenseCore
import PropertyBased
import Testing

/// Budgets by the quarter or the year, hand-computed: the period's spending so far against its
/// amount, a pace prorated by day, and only the month's share in the month's total.
@Suite struct BudgetPeriodTests {
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }

  @Test func periodsAreCalendarQuartersAndYears() {
    let november = Self.month("2026-11")
    #expect(BudgetPeriod.year.months(containing: november) == Self.month("2026-01")...Self.month("2026-12"))
    #expect(BudgetPeriod.quarter.months(containing: november) == Self.month("2026-10")...Self.month("2026-12"))
    #expect(BudgetPeriod.quarter.months(containing: Self.month("2026-03")).lowerBound == Self.month("2026-01"))
    #expect(BudgetPeriod.month.months(containing: november) == november...november)
    #expect(BudgetPeriod.quarter.name(containing: november) == "Q4 2026")
    #expect(BudgetPeriod.year.name(containing: november) == "2026")
  }

  @Test func aMonthsShareIsProratedByDay() {
    // $2,400 a year, 2026 (365 days): November holds days 305–334.
    // 2,400 × 334 ÷ 365 = 2,196.16; 2,400 × 304 ÷ 365 = 1,998.90; November's share 197.26.
    #expect(BudgetPeriod.year.share(of: 240_000, in: Self.month("2026-11")) == 19_726)
    // February of a leap year: 29 of 366 days of $366.00 is $29.00.
    #expect(BudgetPeriod.year.share(of: 36_600, in: Self.month("2028-02")) == 2_900)
    // Q4: 92 days; October 31 of them: 900 × 31 ÷ 92 = 303.26.
    #expect(BudgetPeriod.quarter.share(of: 90_000, in: Self.month("2026-10")) == 30_326)
    #expect(BudgetPeriod.month.share(of: 12_345, in: Self.month("2026-10")) == 12_345)
    // Pace on 20 November: 2,400 × 324 ÷ 365 = 2,130.41.
    #expect(BudgetPeriod.year.pace(of: 240_000, through: CivilDate(year: 2026, month: 11, day: 20)!) == 213_041)
  }

  @Test func theSharesOfAPeriodAddUpToItsAmount() async {
    await propertyCheck(
      count: 300, input: Gen.int64(in: 0...Int64.max / 4), Gen.int(in: 1900...2999), Gen.int(in: 1...12),
      Gen.bool
    ) { amount, year, month, yearly in
      let period: BudgetPeriod = yearly ? .year : .quarter
      let range = period.months(containing: Month(year: year, month: month)!)
      var sum = Int128(0)
      var current = range.lowerBound
      while current <= range.upperBound {
        let share = period.share(of: amount, in: current)
        #expect(share >= 0)
        sum += Int128(share)
        current = current.next
      }
      #expect(sum == Int128(amount), "\(period) \(year)-\(month): the shares add up to \(amount)")
    }
  }

  /// Travel, $2,400 a year: 600 in March, 900 in July, 300 in November; Groceries $400 a month
  /// spent 360 in November. Reported for November as of the 20th.
  static func input(moves: [BudgetMove] = []) -> BenchmarkCalculator.Input {
    let travel = [("2026-03", 60_000), ("2026-07", 90_000), ("2026-11", 30_000)].map { month, out in
      CategoryMonthTotal(
        currency: .usd, category: "Travel", month: Self.month(month), outflowMinor: Int64(out), inflowMinor: 0,
        count: 1)
    }
    let groceries = CategoryMonthTotal(
      currency: .usd, category: "Groceries", month: Self.month("2026-11"), outflowMinor: 36_000, inflowMinor: 0,
      count: 2)
    return BenchmarkCalculator.Input(
      totals: travel + [groceries],
      budgets: [
        Budget(category: "Travel", amount: Money(minor: 240_000, currency: .usd)),
        Budget(category: "Groceries", amount: Money(minor: 40_000, currency: .usd)),
      ],
      historyStart: [.usd: Self.month("2026-03")], moves: moves,
      periods: [CategoryPeriod(category: "Travel", currency: .usd, period: .year)])
  }

  static func november(_ input: BenchmarkCalculator.Input) throws -> BudgetReport {
    BenchmarkCalculator(today: try CivilDate.parse("2026-11-20")).report(for: Self.month("2026-11"), input: input)
  }

  @Test func theRowMeasuresTheYearSoFarAndTheTotalCountsTheMonthsShare() throws {
    let report = try Self.november(Self.input())
    let group = try #require(report.groups.first)
    let travel = try #require(group.categories.first { $0.category == "Travel" })
    #expect(travel.spentMinor == 30_000, "the month's own spending")
    #expect(travel.periodSpentMinor == 180_000)
    #expect(travel.budgetMinor == 240_000 && travel.remainingMinor == 60_000)
    #expect(travel.percentUsed?.tenths == 750 && travel.status == .under)
    #expect(travel.period == .year && travel.periodFrom == Self.month("2026-01"))
    #expect(travel.monthShareMinor == 19_726)
    #expect(travel.paceMinor == 213_041)
    let groceries = try #require(group.categories.first { $0.category == "Groceries" })
    #expect(groceries.period == .month && groceries.monthShareMinor == nil && groceries.periodSpentMinor == nil)
    // 400 + 197.26, never 400 + 2,400; spent 360 + 300 against it.
    #expect(group.totals.row.budgetMinor == 59_726)
    #expect(group.totals.row.remainingMinor == 59_726 - 66_000)
  }

  @Test func aMoveIntoAYearlyBudgetRaisesTheYearFromItsMonthOn() throws {
    let move = BudgetMove(
      id: 1, month: Self.month("2026-09"), currency: .usd, amountMinor: 10_000, from: "Groceries", to: "Travel",
      madeAt: "2026-09-02T10:00:00Z")
    let report = try Self.november(Self.input(moves: [move]))
    let travel = try #require(report.groups.first?.categories.first { $0.category == "Travel" })
    #expect(travel.budgetMinor == 250_000 && travel.remainingMinor == 70_000)
    let august = BenchmarkCalculator(today: try CivilDate.parse("2026-11-20")).report(
      for: Self.month("2026-08"), input: Self.input(moves: [move]))
    #expect(august.groups.first?.categories.first { $0.category == "Travel" }?.budgetMinor == 240_000)
    // A move of the year before is not this year's.
    let lastYear = BudgetMove(
      id: 2, month: Self.month("2025-12"), currency: .usd, amountMinor: 10_000, from: "Groceries", to: "Travel",
      madeAt: "2025-12-02T10:00:00Z")
    let other = try Self.november(Self.input(moves: [lastYear]))
    #expect(other.groups.first?.categories.first { $0.category == "Travel" }?.budgetMinor == 240_000)
  }

  @Test func aQuarterCountsOnlyItsOwnMonths() throws {
    var input = Self.input()
    input.periods = [CategoryPeriod(category: "Travel", currency: .usd, period: .quarter)]
    let travel = try #require(try Self.november(input).groups.first?.categories.first { $0.category == "Travel" })
    // Q4: only November's 300 (July and March are other quarters).
    #expect(travel.periodSpentMinor == 30_000 && travel.remainingMinor == 210_000)
    #expect(travel.periodFrom == Self.month("2026-10") && travel.periodThrough == Self.month("2026-12"))
  }
}

/// `report --exit-status`: over, or projected over what a category has.
@Suite struct BudgetAlarmTests {
  @Test func overAndProjectedOverRaiseTheAlarm() throws {
    let month = Month(year: 2026, month: 11)!
    func total(_ category: String, _ out: Int64, day: Int) -> CategoryMonthTotal {
      CategoryMonthTotal(
        currency: .usd, category: category, month: month, outflowMinor: out, inflowMinor: 0, count: 3,
        dailyOutflowMinor: (1...30).map { $0 <= day ? out / Int64(day) : 0 })
    }
    let budgets = ["Dining": 10_000, "Groceries": 40_000, "Rent": 200_000].map {
      Budget(category: $0.key, amount: Money(minor: Int64($0.value), currency: .usd))
    }
    // Dining over; Groceries on the 10th at 20,000 spent evenly over 10 days: projected 60,000
    // of 40,000; Rent paid once: projected what it spent.
    let input = BenchmarkCalculator.Input(
      totals: [total("Dining", 12_000, day: 10), total("Groceries", 20_000, day: 10), total("Rent", 200_000, day: 1)],
      budgets: budgets)
    let report = BenchmarkCalculator(today: CivilDate(year: 2026, month: 11, day: 10)!).report(for: month, input: input)
    let alarm = report.alarm
    #expect(alarm.over == ["Dining"] && alarm.projectedOver == ["Groceries"] && alarm.isRaised)
    #expect(BudgetAlarm.exitCode == 3 && !(64...78).contains(BudgetAlarm.exitCode))
    let calm = BenchmarkCalculator(today: CivilDate(year: 2026, month: 11, day: 10)!).report(
      for: month, input: .init(totals: [total("Rent", 200_000, day: 1)], budgets: budgets))
    #expect(!calm.alarm.isRaised)
  }
}

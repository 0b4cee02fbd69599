import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Budgets by the quarter or the year through the service, on every store: the period is set
/// with the budget and kept, what a period does not allow is refused with nothing written, and
/// the report reads the period's months even when they are older than its usual six.
@Suite struct BudgetPeriodServiceTests {
  static func month(_ raw: String) -> Month { RolloverServiceTests.month(raw) }
  static func day(_ raw: String) -> CivilDate { RolloverServiceTests.day(raw) }

  static func add(_ store: any LedgerStore, _ rows: [(String, Int64, String)]) throws {
    for (date, minor, category) in rows {
      _ = try store.addExpense(
        Expense(
          date: Self.day(date), amount: Money(minor: minor, currency: .usd), description: "row", category: category))
    }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aYearlyBudgetIsKeptAndMeasuresTheYearSoFar(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    // January is ten months before November: older than the report's usual six.
    try Self.add(store, [("2026-01-10", -70_000, "Travel"), ("2026-11-03", -30_000, "Travel")])
    let service = RolloverServiceTests.service(store, today: "2026-11-20")
    let set = try service.setBudget(
      category: "travel", amount: "2400", month: nil, currency: nil, rollover: nil, period: .year)
    #expect(try service.period(of: set) == .year)
    // Setting the amount again without a period keeps it.
    _ = try service.setBudget(category: "Travel", amount: "3000", month: nil, currency: nil)
    #expect(try service.budgetsWithTerms().map(\.period) == [.year])
    let report = try service.fullReport(month: Self.month("2026-11"), today: Self.day("2026-11-20"))
    let row = try #require(RolloverServiceTests.row(report, "Travel"))
    #expect(row.periodSpentMinor == 100_000 && row.budgetMinor == 300_000 && row.remainingMinor == 200_000)
    #expect(
      report.groups.first?.totals.row.budgetMinor == BudgetPeriod.year.share(of: 300_000, in: Self.month("2026-11")))
    // From the average, by the quarter: three months of it.
    try Self.add(store, [("2026-08-02", -30_000, "Groceries"), ("2026-09-02", -30_000, "Groceries")])
    try Self.add(store, [("2026-10-02", -36_000, "Groceries")])
    let (quarterly, average) = try service.setBudgetFromAverage(
      category: "Groceries", months: 3, month: nil, currency: nil, period: .quarter)
    #expect(average.amountMinor == 32_000 && quarterly.amount.minor == 96_000, "three months of the average")
    // Back to monthly; removing the budget forgets the period.
    _ = try service.setBudget(category: "Travel", amount: "200", month: nil, currency: nil, period: .month)
    // (The budget's spelling, "travel", became the category's.)
    #expect(try service.budgetsWithTerms().first { $0.budget.category == "travel" }?.period == .month)
    _ = try service.setBudget(category: "Travel", amount: "2400", month: nil, currency: nil, period: .year)
    try service.removeBudget(category: "Travel", month: nil, currency: nil as Currency?)
    let again = try service.setBudget(category: "Travel", amount: "200", month: nil, currency: nil)
    #expect(try service.period(of: again) == .month)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func whatAPeriodDoesNotAllowIsRefusedWithNothingWritten(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = RolloverServiceTests.service(store, today: "2026-11-20")
    _ = try service.setBudget(category: "Travel", amount: "2400", month: nil, currency: nil, period: .year)
    let before = try service.budgetsWithTerms().map { "\($0.budget) \($0.rollover) \($0.period)" }
    #expect(
      throws: ServiceError.periodBudgetForMonth(category: "Travel", period: .year, month: Self.month("2026-12"))
    ) {
      try service.setBudget(category: "Travel", amount: "100", month: Self.month("2026-12"), currency: nil)
    }
    #expect(throws: ServiceError.rolloverNeedsMonthlyBudget(category: "Travel", period: .year)) {
      try service.setBudget(category: "Travel", amount: "2400", month: nil, currency: nil, rollover: .all)
    }
    #expect(try service.budgetsWithTerms().map { "\($0.budget) \($0.rollover) \($0.period)" } == before)

    // A category with a month's budget cannot become yearly without losing it: refused.
    _ = try service.setBudget(category: "Dining", amount: "200", month: nil, currency: nil)
    _ = try service.setBudget(category: "Dining", amount: "300", month: Self.month("2026-12"), currency: nil)
    #expect(
      throws: ServiceError.periodBudgetHasMonths(
        category: "Dining", period: .quarter, months: [Self.month("2026-12")])
    ) {
      try service.setBudget(category: "Dining", amount: "600", month: nil, currency: nil, period: .quarter)
    }
    #expect(
      try service.budgetsWithTerms().first { $0.budget.category == "Dining" && $0.budget.month == nil }?.budget.amount
        .minor == 20_000)
    // Under rollover it must be turned off in the same command.
    _ = try service.setBudget(category: "Food", amount: "200", month: nil, currency: nil, rollover: .all)
    #expect(throws: ServiceError.rolloverNeedsMonthlyBudget(category: "Food", period: .year)) {
      try service.setBudget(category: "Food", amount: "2400", month: nil, currency: nil, period: .year)
    }
    let food = try service.setBudget(
      category: "Food", amount: "2400", month: nil, currency: nil, rollover: .off, period: .year)
    #expect(try service.period(of: food) == .year && service.rollover(of: food) == .off)
  }
}

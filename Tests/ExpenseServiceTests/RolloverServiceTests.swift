import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Rollover through the service, on every store: the mode is set with the budget and kept,
/// a carry is computed from the stored rows each time (an old row edited or deleted moves every
/// later month at once), and for random rows, budgets and modes the report's `availableMinor`
/// equals budget + carry recomputed month by month from the rows alone.
@Suite struct RolloverServiceTests {
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }
  static func day(_ raw: String) -> CivilDate { (try? CivilDate.parse(raw)) ?? CivilDate.supportedRange.lowerBound }

  static func service(_ store: any LedgerStore, today: String) -> ExpenseService {
    let day = Self.day(today)
    return ExpenseService(store: store, clock: ServiceClock(now: { Date() }, today: { day }))
  }

  /// The row of category `name`, however the budget respelled it.
  static func row(_ report: BudgetReport, _ name: String) -> CategoryBenchmark? {
    report.groups.flatMap(\.categories).first { CategoryName.key($0.category) == CategoryName.key(name) }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aCarryFollowsEveryChangeToAnOldRow(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    var september = Self.service(store, today: "2026-09-10")
    for (date, minor) in [("2026-09-05", -30_000), ("2026-10-03", -49_032), ("2026-11-04", -12_000)] {
      _ = try store.addExpense(
        Expense(
          date: Self.day(date), amount: Money(minor: Int64(minor), currency: .usd), description: "Market",
          category: "Groceries"))
    }
    // Spelled otherwise than the rows: the budget's spelling becomes the category's, and the
    // mode follows the category, not the spelling.
    _ = try september.setBudget(category: "groceries", amount: "400", month: nil, currency: "USD", rollover: .all)
    #expect(try september.budgetsWithTerms().map(\.rollover) == [.all])
    // Setting the amount again without --rollover keeps the mode, and its first month.
    september = Self.service(store, today: "2026-12-01")
    _ = try september.setBudget(category: "Groceries", amount: "400", month: nil, currency: nil)
    #expect(try september.budgetsWithTerms().map(\.rollover) == [.all])

    let november = Self.month("2026-11")
    let today = Self.day("2026-11-20")
    var row = try #require(Self.row(try september.fullReport(month: november, today: today), "Groceries"))
    #expect(row.carriedInMinor == 968 && row.availableMinor == 28_968)
    #expect(row.carriedFromMonths == [Self.month("2026-09"), Self.month("2026-10")])

    // October's row $10 smaller: November's carry and availability move by exactly $10.
    let october = try #require(
      try store.expenses(month: Self.month("2026-10"), category: nil, limit: nil).first?.id)
    _ = try store.editExpense(id: october, ExpenseEdit(amountMinor: -48_032))
    row = try #require(Self.row(try september.fullReport(month: november, today: today), "Groceries"))
    #expect(row.carriedInMinor == 1_968 && row.availableMinor == 29_968)
    _ = try store.deleteExpenses(ids: [october])
    row = try #require(Self.row(try september.fullReport(month: november, today: today), "Groceries"))
    #expect(row.carriedInMinor == 50_000, "Sep +100, Oct +400")

    // Off: no carry, and the row is as before rollover existed.
    _ = try september.setBudget(category: "Groceries", amount: "400", month: nil, currency: nil, rollover: .off)
    row = try #require(Self.row(try september.fullReport(month: november, today: today), "Groceries"))
    #expect(row.carriedInMinor == nil && row.remainingMinor == 28_000)
    // Removing the budget forgets the mode: a budget set again starts without one.
    _ = try september.setBudget(category: "Groceries", amount: "400", month: nil, currency: nil, rollover: .surplus)
    try september.removeBudget(category: "Groceries", month: nil, currency: nil as Currency?)
    _ = try september.setBudget(category: "Groceries", amount: "400", month: nil, currency: nil)
    #expect(try september.budgetsWithTerms().map(\.rollover) == [.off])
  }

  /// For random rows, budgets (with month overrides) and modes: what the report says is
  /// available equals the budget plus the carry recomputed from the rows read back from the
  /// store, month by month.
  @Test(arguments: StoreUnderTest.allCases)
  func availableIsBudgetPlusTheCarryOfTheRows(_ kind: StoreUnderTest) throws {
    for seed in UInt64(1)...6 {
      var rng = SeededRandom(state: seed &* 0x9E37_79B9_7F4A_7C15)
      let store = try kind.make(in: try ServiceTests.Folder())
      let months = (0..<8).map { Self.month("2026-01").adding(months: $0) }
      for month in months {
        for _ in 0..<rng.int(0...4) {
          let category = ["Food", "Fun"][rng.int(0...1)]
          let minor = Int64(rng.int(-30_000...4_000))
          _ = try store.addExpense(
            Expense(
              date: CivilDate(year: month.year, month: month.month, day: rng.int(1...28)) ?? month.firstDay,
              amount: Money(minor: minor, currency: .usd), description: "row", category: category))
        }
      }
      let modes: [RolloverMode] = [.all, .surplus]
      let since = months[rng.int(0...3)]
      let service = Self.service(store, today: since.firstDay.description)
      for category in ["Food", "Fun"] {
        _ = try service.setBudget(
          category: category, amount: "\(rng.int(0...300))", month: nil, currency: "USD",
          rollover: modes[rng.int(0...1)])
        let override = months[rng.int(0...7)]
        _ = try service.setBudget(category: category, amount: "\(rng.int(0...500))", month: override, currency: "USD")
      }
      let budgets = try store.budgets()
      let rows = try store.expenses(month: nil, category: nil, limit: nil)
      for category in ["Food", "Fun"] {
        let mode = try service.budgetsWithTerms().first { $0.budget.category == category }?.rollover ?? .off
        func budget(_ month: Month) -> Int64 {
          let mine = budgets.filter { $0.category == category }
          return (mine.first { $0.month == month } ?? mine.first { $0.month == nil })?.amount.minor ?? 0
        }
        func spent(_ month: Month) -> Int64 {
          rows.filter { $0.category == category && $0.date.calendarMonth == month }.reduce(0) { $0 - $1.amount.minor }
        }
        var carry: Int64 = 0
        for month in months where month >= since {
          let report = try service.fullReport(month: month, today: Self.day("2027-01-15"))
          let row = try #require(Self.row(report, category), "\(kind) seed \(seed) \(month) \(category)")
          #expect(row.carriedInMinor == carry, "\(kind) seed \(seed) \(month) \(category)")
          let available = budget(month) + carry - spent(month)
          #expect(row.availableMinor == available, "\(kind) seed \(seed) \(month) \(category)")
          carry = mode == .all ? available : max(0, available)
        }
      }
    }
  }

  /// `budget set --from-average` and `budget suggest` on every store: the average of the last
  /// complete months, rounded to a whole unit; a budgeted category is not suggested again.
  @Test(arguments: StoreUnderTest.allCases)
  func budgetsFromHistory(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    for (date, minor, category) in [
      ("2026-09-05", -30_000, "Groceries"), ("2026-10-03", -49_032, "Groceries"), ("2026-11-04", -45_000, "Groceries"),
      ("2026-11-10", 550, "Groceries"), ("2026-11-05", -3_000, "Dining"), ("2026-12-01", -99_000, "Dining"),
    ] {
      _ = try store.addExpense(
        Expense(
          date: Self.day(date), amount: Money(minor: Int64(minor), currency: .usd), description: "row",
          category: category))
    }
    let service = Self.service(store, today: "2026-12-02")
    #expect(
      try service.budgetSuggestions().map { "\($0.category) \($0.amountMinor)" } == ["Dining 1000", "Groceries 41200"])
    let (budget, average) = try service.setBudgetFromAverage(
      category: "groceries", months: 3, month: nil, currency: nil, rollover: .surplus)
    #expect(budget.amount.minor == 41_200 && average.averageMinor == 41_161)
    #expect(average.months.map(\.description) == ["2026-09", "2026-10", "2026-11"])
    #expect(try service.budgetsWithTerms().map(\.rollover) == [.surplus])
    #expect(try service.budgetSuggestions().map(\.category) == ["Dining"])
    #expect(throws: ServiceError.nothingToAverage(category: "Travel", months: 3)) {
      try service.setBudgetFromAverage(category: "Travel", months: 3, month: nil, currency: nil)
    }
    #expect(try store.budgets().count == 1, "a refused average changes nothing")
  }
}

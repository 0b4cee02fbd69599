import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Moving budget between categories, on every store: a move changes both budgets of its month
/// only, never takes a budget below zero (what carried in counts), a carry reads the moved
/// budget, and a move taken back leaves the month as before; ids are never given twice.
@Suite struct BudgetMoveTests {
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }
  static func day(_ raw: String) -> CivilDate { (try? CivilDate.parse(raw)) ?? CivilDate.supportedRange.lowerBound }

  static func row(_ report: BudgetReport, _ name: String) -> CategoryBenchmark? {
    report.groups.flatMap(\.categories).first { $0.category == name }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aMoveChangesTwoBudgetsOfOneMonth(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    for (date, minor, category) in [("2026-10-03", -4_000, "Dining"), ("2026-10-04", -45_000, "Groceries")] {
      _ = try store.addExpense(
        Expense(
          date: Self.day(date), amount: Money(minor: Int64(minor), currency: .usd), description: "row",
          category: category))
    }
    let day = Self.day("2026-10-20")
    let service = ExpenseService(store: store, clock: ServiceClock(now: { Date() }, today: { day }))
    _ = try service.setBudget(category: "Dining", amount: "100", month: nil, currency: nil)
    _ = try service.setBudget(category: "Groceries", amount: "400", month: nil, currency: nil, rollover: .all)

    let move = try service.moveBudget(amount: "50", from: "dining", to: "Groceries", month: nil, currency: nil)
    #expect(move.id == 1 && move.from == "Dining" && move.month == Self.month("2026-10"))
    var report = try service.fullReport(month: Self.month("2026-10"), today: day)
    #expect(Self.row(report, "Dining")?.budgetMinor == 5_000 && Self.row(report, "Dining")?.movedMinor == -5_000)
    #expect(Self.row(report, "Groceries")?.budgetMinor == 45_000 && Self.row(report, "Groceries")?.remainingMinor == 0)
    #expect(report.groups.first?.moves == [move])
    #expect(report.groups.first?.totals.row.budgetMinor == 50_000, "a move changes no total")
    // November: its budgets are as set, and Groceries' carry reads October's moved budget (0 left).
    let november = try service.fullReport(month: Self.month("2026-11"), today: day)
    #expect(Self.row(november, "Dining")?.budgetMinor == 10_000 && Self.row(november, "Dining")?.movedMinor == nil)
    #expect(Self.row(november, "Groceries")?.carriedInMinor == 0)

    #expect(throws: ServiceError.self) {
      try service.moveBudget(amount: "50.01", from: "Dining", to: "Groceries", month: nil, currency: nil)
    }
    #expect(throws: ServiceError.moveBetweenSame("Dining")) {
      try service.moveBudget(amount: "1", from: "Dining", to: "DINING", month: nil, currency: nil)
    }
    #expect(throws: ServiceError.moveAmount(0)) {
      try service.moveBudget(amountMinor: 0, from: "Dining", to: "Groceries", month: nil, currency: nil)
    }

    #expect(try service.removeBudgetMove(id: 1) == move)
    #expect(throws: ServiceError.moveNotFound(1)) { try service.removeBudgetMove(id: 1) }
    report = try service.fullReport(month: Self.month("2026-10"), today: day)
    #expect(Self.row(report, "Dining")?.budgetMinor == 10_000 && Self.row(report, "Dining")?.movedMinor == nil)
    #expect(try service.budgetMoves().isEmpty)
    let again = try service.moveBudget(amount: "10", from: "Dining", to: "Groceries", month: nil, currency: nil)
    #expect(again.id == 2, "a removed move's id is never given again")
  }
}

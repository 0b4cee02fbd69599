import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// Goals through the service, on every store: what is set aside is the category's available
/// amount under rollover, else what was spent in it since the goal was added; recomputed every
/// month; ids never given twice; a bad goal is refused and nothing is kept.
@Suite struct GoalServiceTests {
  static func day(_ raw: String) -> CivilDate { (try? CivilDate.parse(raw)) ?? CivilDate.supportedRange.lowerBound }
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }

  static func service(_ store: any LedgerStore, today: String) -> ExpenseService {
    let day = Self.day(today)
    return ExpenseService(store: store, clock: ServiceClock(now: { Date() }, today: { day }))
  }

  @Test(arguments: StoreUnderTest.allCases)
  func goalsMeasureWhatIsSetAside(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let november = Self.service(store, today: "2026-11-10")
    // A savings category under rollover: $500 a month, nothing spent.
    _ = try november.setBudget(category: "Car", amount: "500", month: nil, currency: nil, rollover: .all)
    let car = try november.addGoal(
      name: "New car", amount: "6000", by: Self.month("2027-10"), category: "car", currency: nil)
    #expect(car.goal.id == 1 && car.goal.category == "Car" && car.goal.since == Self.month("2026-11"))
    // November: $500 available (this month's budget), 5,500 over 12 months: $458.34.
    #expect(
      car.savedMinor == 50_000 && car.monthsLeft == 12 && car.monthlyNeedMinor == 45_834 && car.status == .onTrack)
    // A goal without rollover counts money moved into its category: $300 in November.
    _ = try store.addExpense(
      Expense(
        date: Self.day("2026-11-05"), amount: Money(minor: -30_000, currency: .usd), description: "To savings",
        category: "Trip"))
    let trip = try november.addGoal(
      name: "Lisbon", amount: "1200", by: Self.month("2026-12"), category: "Trip", currency: nil)
    #expect(trip.goal.id == 2 && trip.savedMinor == 30_000 && trip.monthlyNeedMinor == 45_000)

    // February: the car fund carried $500 a month (2,000 by the end of February's budget).
    let february = Self.service(store, today: "2027-02-01")
    let goals = try february.goals()
    #expect(goals.map(\.goal.id) == [1, 2])
    #expect(goals[0].savedMinor == 200_000 && goals[0].status == .onTrack)
    #expect(goals[1].status == .overdue && goals[1].remainingMinor == 90_000)

    #expect(try february.removeGoal(id: 2).name == "Lisbon")
    #expect(throws: ServiceError.goalNotFound(2)) { try february.removeGoal(id: 2) }
    #expect(throws: ServiceError.self) {
      try february.addGoal(name: "Past", amount: "100", by: Self.month("2027-01"), category: "Car", currency: nil)
    }
    #expect(throws: ServiceError.goalValue("a goal needs a name")) {
      try february.addGoal(name: "  ", amount: "100", by: Self.month("2027-05"), category: "Car", currency: nil)
    }
    let next = try february.addGoal(
      name: "Bike", amount: "100", by: Self.month("2027-05"), category: "Fun", currency: nil)
    #expect(next.goal.id == 3, "a removed goal's id is never given again")
  }
}

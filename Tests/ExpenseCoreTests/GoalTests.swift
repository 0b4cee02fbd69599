import ExpenseCore
import Testing

/// A goal's monthly need and standing, hand-computed: $10,000 by December 2027, added in
/// November 2026 (14 months, November included).
@Suite struct GoalTests {
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }
  static let car = Goal(
    id: 1, name: "New car", category: "Car", currency: .usd, targetMinor: 1_000_000, by: month("2027-12"),
    since: month("2026-11"))

  @Test func theFirstMonthSpreadsTheAmountOverEveryMonthLeft() {
    let now = GoalProgress(goal: Self.car, month: Self.month("2026-11"), saved: 0)
    // 10,000 / 14 = 714.2857… → $714.29, rounded up so the months add up to the goal.
    #expect(now.monthsLeft == 14 && now.monthlyNeedMinor == 71_429)
    #expect(now.status == .onTrack, "nothing is expected before the first month")
  }

  @Test func savingLessThanEvenlyIsBehindByWholeMonths() {
    // March 2027: four months before it (Nov–Feb), evenly $2,857.14 by now; $1,000 saved is
    // $1,857.14 short: 2.6 months of $714.28, so 3 months behind.
    let march = GoalProgress(goal: Self.car, month: Self.month("2027-03"), saved: 100_000)
    #expect(march.status == .behind && march.monthsBehind == 3)
    // 9,000 left over 10 months (March–December).
    #expect(march.monthsLeft == 10 && march.monthlyNeedMinor == 90_000)
    let ahead = GoalProgress(goal: Self.car, month: Self.month("2027-03"), saved: 300_000)
    #expect(ahead.status == .onTrack && ahead.monthsBehind == 0)
  }

  @Test func reachedOverdueAndTheLastMonth() {
    #expect(GoalProgress(goal: Self.car, month: Self.month("2027-06"), saved: 1_000_001).status == .reached)
    let last = GoalProgress(goal: Self.car, month: Self.month("2027-12"), saved: 900_000)
    #expect(last.monthsLeft == 1 && last.monthlyNeedMinor == 100_000 && last.remainingMinor == 100_000)
    let late = GoalProgress(goal: Self.car, month: Self.month("2028-02"), saved: 900_000)
    #expect(late.status == .overdue && late.monthsLeft == 0 && late.monthlyNeedMinor == 100_000)
  }
}

import ExpenseCore
import Testing

/// Budget rollover, hand-computed: what is left (surplus) or what is left and what went over
/// (all) carries month to month from the month rollover began, and the month's row measures
/// what is left, the percent used and the status against the budget plus what came in.
@Suite struct RolloverTests {
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }

  /// Groceries, $400 a month from September: spent $300, $490.32, $520, then November.
  static let spent: [String: Int64] = ["2026-09": 30_000, "2026-10": 49_032, "2026-11": 52_000]

  static func carry(_ mode: RolloverMode, into month: String, since: String = "2026-09", budgets: [String: Int64] = [:])
    -> Carry
  {
    CarryCalculator.carry(
      into: Self.month(month),
      rollover: Rollover(category: "Groceries", currency: .usd, mode: mode, since: Self.month(since)),
      budget: { budgets[$0.description] ?? 40_000 }, spent: { spent[$0.description] ?? 0 })
  }

  @Test func allCarriesWhatIsLeftAndWhatWentOver() {
    // Sep: 400 − 300 = +100. Oct: 400 + 100 − 490.32 = +9.68. Nov: 400 + 9.68 − 520 = −110.32.
    #expect(Self.carry(.all, into: "2026-09").carriedInMinor == 0, "the first month starts from its budget")
    #expect(Self.carry(.all, into: "2026-10") == Carry(carriedInMinor: 10_000, months: [Self.month("2026-09")]))
    #expect(Self.carry(.all, into: "2026-11").carriedInMinor == 968)
    let december = Self.carry(.all, into: "2026-12")
    #expect(december.carriedInMinor == -11_032)
    #expect(december.months.map(\.description) == ["2026-09", "2026-10", "2026-11"])
  }

  @Test func surplusCarriesOnlyWhatIsLeft() {
    #expect(Self.carry(.surplus, into: "2026-11").carriedInMinor == 968)
    // November went over: nothing is taken from December, and December starts from $400.
    #expect(Self.carry(.surplus, into: "2026-12").carriedInMinor == 0)
    // January: December spent nothing, so all of its $400 carries.
    #expect(Self.carry(.surplus, into: "2027-01").carriedInMinor == 40_000)
  }

  @Test func offAndMonthsBeforeTheStartCarryNothing() {
    #expect(Self.carry(.off, into: "2026-12") == Carry(carriedInMinor: 0, months: []))
    #expect(Self.carry(.all, into: "2026-10", since: "2026-11") == Carry(carriedInMinor: 0, months: []))
    // Turned on in October: September's $100 left is not carried.
    #expect(Self.carry(.all, into: "2026-11", since: "2026-10").carriedInMinor == -9_032)
  }

  @Test func aMonthsOwnBudgetIsTheOneCarriedFrom() {
    // October's override of $600: 600 + 100 − 490.32 = 209.68 into November.
    #expect(Self.carry(.all, into: "2026-11", budgets: ["2026-10": 60_000]).carriedInMinor == 20_968)
  }

  @Test func aCarryOfHugeAmountsIsCappedNeverTrapped() {
    let carry = CarryCalculator.carry(
      into: Self.month("2027-06"),
      rollover: Rollover(category: "X", currency: .usd, mode: .all, since: Self.month("2026-01")),
      budget: { _ in Int64.max }, spent: { _ in -Int64.max })
    #expect(carry.carriedInMinor == Int64.max / 2)
  }

  /// The report: November's Groceries row under `all` shows what came in (−$110.32 would be
  /// December's; November's is +$9.68), what is available, and its status against that.
  @Test func theMonthsRowMeasuresAgainstWhatIsAvailable() throws {
    let totals = Self.spent.map { month, out in
      CategoryMonthTotal(
        currency: .usd, category: "Groceries", month: Self.month(month), outflowMinor: out, inflowMinor: 0, count: 1)
    }
    let input = BenchmarkCalculator.Input(
      totals: totals, budgets: [Budget(category: "Groceries", amount: Money(minor: 40_000, currency: .usd))],
      historyStart: [.usd: Self.month("2026-09")],
      rollovers: [Rollover(category: "Groceries", currency: .usd, mode: .all, since: Self.month("2026-09"))])
    let report = BenchmarkCalculator(today: try CivilDate.parse("2026-12-15")).report(
      for: Self.month("2026-11"), input: input)
    let row = try #require(report.groups.first?.categories.first)
    #expect(row.carriedInMinor == 968)
    #expect(row.availableMinor == 40_968 - 52_000)
    #expect(row.remainingMinor == row.availableMinor)
    #expect(row.carriedFromMonths?.map(\.description) == ["2026-09", "2026-10"])
    #expect(row.status == .over)
    // 520 of 409.68 available: 126.9 %.
    #expect(row.percentUsed?.tenths == 1_269)
    let totalsRow = try #require(report.groups.first?.totals.row)
    #expect(totalsRow.carriedInMinor == 968 && totalsRow.remainingMinor == -11_032)
    #expect(totalsRow.spentMinor == 52_000, "the total's spent is still every category's")

    // Without rollover the row has none of it.
    var plain = input
    plain.rollovers = []
    let without = BenchmarkCalculator(today: try CivilDate.parse("2026-12-15")).report(
      for: Self.month("2026-11"), input: plain)
    let row2 = try #require(without.groups.first?.categories.first)
    #expect(row2.carriedInMinor == nil && row2.availableMinor == nil && row2.remainingMinor == -12_000)
  }
}

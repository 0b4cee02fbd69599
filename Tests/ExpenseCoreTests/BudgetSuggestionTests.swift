import ExpenseCore
import Testing

/// Budgets from history, hand-computed: the average of the last complete months before
/// today's (none before the history starts), refunds lowering it, rounded half to even to a
/// whole unit of the currency; income and transfers never suggested.
@Suite struct BudgetSuggestionTests {
  static func month(_ raw: String) -> Month { (try? Month.parse(raw)) ?? Month.supportedRange.lowerBound }

  static func total(_ category: String, _ month: String, out: Int64, in inflow: Int64 = 0, _ currency: Currency = .usd)
    -> CategoryMonthTotal
  {
    CategoryMonthTotal(
      currency: currency, category: category, month: Self.month(month), outflowMinor: out, inflowMinor: inflow,
      count: 1)
  }

  @Test func theWindowIsCompleteMonthsSinceTheHistoryStarts() throws {
    let today = try CivilDate.parse("2026-12-02")
    #expect(
      BudgetSuggestion.window(months: 3, today: today, historyStart: Self.month("2026-01")).map(\.description)
        == ["2026-09", "2026-10", "2026-11"])
    #expect(
      BudgetSuggestion.window(months: 3, today: today, historyStart: Self.month("2026-11")).map(\.description)
        == ["2026-11"])
    #expect(BudgetSuggestion.window(months: 3, today: today, historyStart: nil).isEmpty)
  }

  @Test func theAverageIsRoundedToAWholeUnit() {
    let months = ["2026-09", "2026-10", "2026-11"].map(Self.month)
    let totals = [
      // Groceries: 300.00 + 490.32 + (450.00 − 5.50 refunded) = 1,234.82 → 411.61 → $412.
      Self.total("Groceries", "2026-09", out: 30_000), Self.total("Groceries", "2026-10", out: 49_032),
      Self.total("Groceries", "2026-11", out: 45_000, in: 550),
      // Dining: 0 + 0 + 150.00 = 50.00 (a month without rows counts as nothing spent).
      Self.total("Dining", "2026-11", out: 15_000),
      // Yen have no minor unit: ¥2,501 / 3 = ¥833.67 → ¥834.
      Self.total("Ramen", "2026-10", out: 2_501, .jpy),
      Self.total("Salary", "2026-10", out: 0, in: 500_000), Self.total("Transfers", "2026-10", out: 90_000),
      Self.total("Refunds", "2026-10", out: 100, in: 900),
      Self.total("Old", "2026-05", out: 99_900),
    ]
    let suggestions = BudgetSuggestion.suggestions(totals: totals, months: months, kinds: ["Salary": .income])
    #expect(suggestions.map(\.category) == ["Ramen", "Dining", "Groceries"])
    #expect(suggestions.map(\.amountMinor) == [834, 5_000, 41_200])
    #expect(suggestions.map(\.averageMinor) == [834, 5_000, 41_161])
    #expect(suggestions.allSatisfy { $0.months == months })
    #expect(
      BudgetSuggestion.suggestions(totals: totals, months: months, kinds: [:], category: "Dining").map(\.amountMinor)
        == [5_000])
  }

  @Test func halfAUnitRoundsToEven() {
    let months = [Self.month("2026-11")]
    let even = BudgetSuggestion.suggestions(
      totals: [Self.total("A", "2026-11", out: 25_050)], months: months, kinds: [:])
    let odd = BudgetSuggestion.suggestions(
      totals: [Self.total("A", "2026-11", out: 25_150)], months: months, kinds: [:])
    #expect(even.first?.amountMinor == 25_000 && odd.first?.amountMinor == 25_200)
  }
}

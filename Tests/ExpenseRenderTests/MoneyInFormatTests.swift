import ExpenseCore
import Foundation
import Testing

@testable import ExpenseRender

/// Money that is not spending, in every format: a credit reads as a credit, and income, unsorted money in and
/// transfers have their own lines (text at every width class, Markdown, HTML, CSV).
@Suite struct MoneyInFormatTests {
  /// October: refunds above purchases, a salary, a payroll deposit without category, a card payment.
  static var report: BudgetReport {
    let october = Month(year: 2026, month: 10)!
    let totals = [
      CategoryMonthTotal(
        currency: .usd, category: "Shopping", month: october, outflowMinor: 2000, inflowMinor: 5000, count: 2,
        inflowCount: 1),
      CategoryMonthTotal(
        currency: .usd, category: "Salary", month: october, outflowMinor: 0, inflowMinor: 520_000, count: 1,
        inflowCount: 1),
      CategoryMonthTotal(
        currency: .usd, category: nil, month: october, outflowMinor: 0, inflowMinor: 312_582, count: 2,
        inflowCount: 2),
      CategoryMonthTotal(
        currency: .usd, category: transfersName, month: october, outflowMinor: 50000, inflowMinor: 0, count: 1),
    ]
    return BenchmarkCalculator(today: CivilDate(year: 2026, month: 10, day: 20)!).report(
      for: october,
      input: .init(
        totals: totals, budgets: [Budget(category: "Shopping", amount: Money(minor: 10000, currency: .usd))],
        kinds: ["Salary": .income], historyStart: [.usd: october]))
  }

  @Test func textSaysCreditAndHasTheMoneyInLinesAtEveryWidth() {
    for width in [20, 40, 59, 80, 132] {
      let text = TextRenderer(options: RenderOptions(width: width)).render(MoneyInFormatTests.report)
      let flat = text.replacingOccurrences(of: "\n  ", with: " ")
      #expect(flat.contains("Credit $30.00") || flat.contains("Credit   $30.00"), "width \(width):\n\(text)")
      #expect(!text.contains("-$30.00") && !text.contains("-30%") && !text.contains("Spent -"), "width \(width)")
      #expect(flat.contains("Unsorted money in $3,125.82 · 2 rows"), "width \(width):\n\(text)")
      #expect(flat.contains("sort: expenses rules add"), "width \(width)")
      #expect(flat.contains("Transfers $500.00 out · 1 row"), "width \(width):\n\(text)")
      #expect(flat.contains("$5,200.00"), "income, width \(width)")
    }
  }

  @Test func markdownAndHTMLHaveTheSameLines() {
    let markdown = MarkdownRenderer(sections: .standard).render(MoneyInFormatTests.report)
    #expect(markdown.contains("- Credit $30.00 (refunds exceed purchases), budget $100.00"))
    #expect(markdown.contains("- Income $5,200.00"))
    #expect(markdown.contains("- Unsorted money in $3,125.82 · 2 rows"))
    #expect(markdown.contains("- Transfers $500.00 out · 1 row"))
    #expect(markdown.contains("| Shopping | $30.00 cr |"))
    let html = HTMLRenderer(sections: .standard).render(MoneyInFormatTests.report)
    #expect(html.contains("<li>Credit $30.00 (refunds exceed purchases), budget $100.00</li>"))
    #expect(html.contains("<li>Unsorted money in $3,125.82 · 2 rows"))
    #expect(html.contains("<li>Transfers $500.00 out · 1 row</li>"))
  }

  @Test func csvAddsKindColumnsAndMoneyInRows() {
    let lines = CSVRenderer(sections: .standard).render(MoneyInFormatTests.report).components(separatedBy: "\r\n")
    #expect(lines[0].contains(",transactions,kind,average_months,projection_basis,amount,record,"))
    let width = lines[0].split(separator: ",").count
    #expect(
      lines.filter { !$0.isEmpty }.allSatisfy {
        $0.split(separator: ",", omittingEmptySubsequences: false).count == width
      })
    #expect(
      lines.contains {
        $0.hasPrefix("2026-10,USD,Shopping,100.00,-30.00,130.00,0,under,") && $0.contains(",expense,,recorded,")
      })
    #expect(lines.contains { $0.hasPrefix("2026-10,USD,Salary,,,,,,,,,,,income,,,5200.00,") })
    #expect(lines.contains { $0.hasPrefix("2026-10,USD,Uncategorized,,,,,,,,,,2,unsorted,,,3125.82,") })
    #expect(lines.contains { $0.hasPrefix("2026-10,USD,Transfers,,,,,,,,,,1,transfer,,,500.00,") })
  }
}

import ExpenseCore
import Foundation
import Testing

@testable import ExpenseRender

/// The page, Markdown, CSV and journal renderers on hostile text: markup, quotes, pipes,
/// newlines and formula starts from a bank file never act as anything but text.
@Suite("Page, Markdown, CSV and journal formats")
struct WebFormatTests {
  static let hostile = "<script>alert('x')</script> & \"Tom\" | =1+2\nnext"

  /// The demo report with a hostile category name and expense description, everything loaded.
  var report: BudgetReport {
    var r = Fixtures.demo
    r.groups[0].categories[0].category = WebFormatTests.hostile
    r.expenses![0].description = WebFormatTests.hostile
    r.trends = TrendReport(
      months: [Fixtures.october], rows: [TrendRow(currency: .usd, category: WebFormatTests.hostile, spentMinor: [100])])
    return r
  }

  @Test func htmlEscapesMarkupAmpersandsAndQuotes() {
    #expect(
      HTMLRenderer.escape("<a href=\"x\">Tom & Jerry's</a>")
        == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    let html = HTMLRenderer(sections: .standard).render(report)
    #expect(!html.contains("<script"), "no script element from data")
    #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Tom&quot;"))
    #expect(html.contains("Content-Security-Policy"))
    #expect(!html.contains("http://") && !html.contains("https://"), "no network")
  }

  @Test func htmlCollapsedSectionsHoldTheirWholeContent() {
    let html = HTMLRenderer(sections: .standard).render(report)
    // Expenses and trends are collapsed by default: closed <details>, content inside.
    let expenses = html.components(separatedBy: "<details class=\"section\" id=\"expenses\"")[1]
      .components(separatedBy: "</details>")[0]
    #expect(expenses.hasPrefix(" data-section=\"expenses\">"), "closed")
    #expect(expenses.components(separatedBy: "<tr>").count - 1 == report.expenses!.count + 1)
    #expect(html.contains("<details class=\"section\" id=\"trends\" data-section=\"trends\">\n<summary>"), "closed")
    #expect(
      html.contains("Category Performance</span> <span class=\"count\">(\(report.categoryCount) · 2 over)</span>"))
    #expect(html.contains("id=\"category-performance\" data-section=\"category-performance\" open>"))
    let open = HTMLRenderer(sections: SectionStates(expanded: [.expenses: true, .categoryPerformance: false]))
      .render(report)
    #expect(open.contains("id=\"expenses\" data-section=\"expenses\" open>"))
    #expect(open.contains("id=\"category-performance\" data-section=\"category-performance\">"))
    #expect(!html.contains("id=\"summary\" data-section=\"summary\" open"), "the summary is never a <details>")
    #expect(
      html.contains("Income $5,200.00") && html.contains("Unsorted money in") && html.contains("Transfers $500.00"))
  }

  @Test func markdownEscapesPipesAndKeepsCollapsedSectionsInDetails() {
    #expect(MarkdownRenderer.escape("a|b\nc & <d>") == "a\\|b c \\& \\<d\\>")
    let md = MarkdownRenderer(sections: .standard).render(report)
    #expect(md.contains("<details><summary>Expenses (\(report.expenseCount))</summary>\n\n| Date |"))
    #expect(md.contains("<details><summary>Trends (1 months)</summary>"))
    #expect(md.contains("## Category Performance vs Budget (\(report.categoryCount) · 2 over)"))
    #expect(md.contains("- Income $5,200.00") && md.contains("- Unsorted money in") && md.contains("- Transfers"))
    // Every table row has the same number of unescaped pipes as its header.
    for table in md.components(separatedBy: "\n\n") where table.hasPrefix("| ") {
      let rows = table.split(separator: "\n")
      let pipes = rows.map { row in
        row.enumerated().filter { $0.element == "|" && ($0.offset == 0 || Array(row)[$0.offset - 1] != "\\") }.count
      }
      #expect(Set(pipes).count == 1, "\(rows.first!)")
    }
  }

  @Test func csvQuotesAndDefusesTextButNotNumbers() {
    #expect(
      CSVField.quoted("a,\"b\"\r\nc") == "\"a,\"\"b\"\" c\""
        || CSVField.quoted("a,\"b\"\r\nc") == "\"a,\"\"b\"\"\r\nc\"")
    for start in ["=", "+", "-", "@"] { #expect(CSVWriter.text(start + "x") == "'" + start + "x") }
    #expect(CSVWriter.text("\tx") == "' x" && CSVWriter.text("\rx") == "' x")
    #expect(CSVWriter.text("plain") == "plain")
    let csv = CSVRenderer(sections: .standard).render(report)
    #expect(csv.contains(",-18.40,"), "a negative amount is a number")
    #expect(!csv.contains(",=1+2") && csv.contains("'<script>") == false)
    let list = ExpenseCSVRenderer.render([
      Expense(
        id: 7, date: Fixtures.date(1), amount: Money(minor: -1234, currency: .usd), description: "=cmd|' /C calc'!A0")
    ])
    #expect(list.contains("7,2026-10-01,-1234,-12.34,USD,'=cmd|' /C calc'!A0,,,,\r\n"))
  }

  @Test func journalNamesAreValidAndDistinct() {
    #expect(BeancountRenderer.component("dining out") == "Dining-out")
    #expect(BeancountRenderer.component("東京 食費") == "X東京-食費")
    #expect(BeancountRenderer.component("🍕") == "U1F355")
    #expect(BeancountRenderer.component("Café & Bar") == "Café-Bar")
    #expect(LedgerRenderer.component("Food: Groceries;  (x)") == "Food- Groceries- -x-")
    #expect(LedgerRenderer.component("a\tb") == "a b")
    let input = ExportInput(
      expenses: [
        Expense(
          id: 1, date: Fixtures.date(1), amount: Money(minor: -100, currency: .usd), description: "a",
          category: "Dining out"),
        Expense(
          id: 2, date: Fixtures.date(2), amount: Money(minor: -200, currency: .usd), description: "b; c",
          category: "dining-out"),
      ], kinds: [:], budgets: [])
    let bean = BeancountRenderer().render(input)
    #expect(bean.contains("open Expenses:Dining-out\n") && bean.contains("open Expenses:Dining-out-2\n"))
    let ledger = LedgerRenderer().render(input)
    #expect(ledger.contains("2026-10-02 * (2) b, c"), "no ; in a description")
  }

  @Test func budgetOverridesSplitTheDefault() {
    let oct = Fixtures.october
    let periods = BudgetPeriods.periods([
      Budget(category: "Food", amount: Money(minor: 100, currency: .usd)),
      Budget(category: "Food", amount: Money(minor: 300, currency: .usd), month: oct),
    ])
    #expect(periods.map(\.range.ledger) == [" to 2026-10-01", " from 2026-11-01", " from 2026-10-01 to 2026-11-01"])
    #expect(periods.map(\.amount.minor) == [100, 100, 300])
  }
}

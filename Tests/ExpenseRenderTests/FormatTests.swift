import ExpenseCore
import Foundation
import Testing

@testable import ExpenseRender

@Suite("Output formats")
struct FormatTests {
  func json(_ report: BudgetReport, _ states: SectionStates = .standard) throws -> [String: Any] {
    let text = JSONRenderer(sections: states).render(report)
    return try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
  }

  @Test func jsonContractKeysAndExplicitNulls() throws {
    let root = try json(Fixtures.twoCurrencies)
    #expect(root["month"] as? String == "2026-09")
    #expect(root["today"] as? String == "2026-10-20")
    #expect(root["daysElapsed"] is NSNull)
    let groups = try #require(root["groups"] as? [[String: Any]])
    #expect(groups.map { $0["currency"] as? String } == ["EUR", "USD"])
    let museums = try #require(
      (groups[0]["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "Museums" })
    for key in [
      "category", "budgetMinor", "spentMinor", "remainingMinor", "percentUsed", "status", "trailingAverageMinor",
      "changeFromAveragePercent", "paceMinor", "projectedMinor", "kind", "averageMonths", "projectionBasis",
    ] {
      #expect(museums.keys.contains(key), "missing \(key)")
    }
    #expect(museums["kind"] as? String == "expense")
    #expect(museums["averageMonths"] is NSNull && museums["projectionBasis"] is NSNull)  // a past month, no history
    for key in ["unsortedInMinor", "unsortedInCount", "transfersMinor", "transferCount", "amountsCapped"] {
      #expect(groups[0].keys.contains(key), "missing \(key)")
    }
    #expect(museums["budgetMinor"] is NSNull && museums["paceMinor"] is NSNull)
    #expect(museums["spentMinor"] as? Int == 2_400)
    #expect(groups[0]["totals"] is [String: Any])
    let sections = try #require(root["sections"] as? [[String: Any]])
    #expect(
      sections.map { $0["id"] as? String } == [
        "summary", "category-performance", "expenses", "trends", "goals", "accounts", "recurring", "tags",
      ])
    #expect(sections.map { $0["collapsible"] as? Bool } == [false, true, true, true, true, true, true, true])
    #expect(
      sections.map { $0["collapsibleIn"] as? String } == [
        "never", "compact", "always", "always", "always", "always", "always", "always",
      ])
    #expect(sections.map { $0["expanded"] as? Bool } == [true, true, false, false, false, false, false, false])
    #expect(sections.map { $0["itemCount"] as? Int } == [2, 7, Fixtures.twoCurrencies.expenseCount, 6, 0, 0, 0, 0])
    #expect((root["accounts"] as? [Any])?.isEmpty == true, "no statement stated a balance")
    #expect((root["recurring"] as? [Any])?.isEmpty == true, "no recurring series")
    let expenses = try #require(root["expenses"] as? [[String: Any]])
    #expect(expenses.first?["amountMinor"] as? Int == -21_000)
    #expect(expenses.first?["id"] is NSNull)
    #expect(root["trends"] is NSNull)
  }

  @Test func jsonIsStableAndEscapesControlCharacters() {
    let a = JSONRenderer(sections: .standard).render(Fixtures.demo)
    #expect(a == JSONRenderer(sections: .standard).render(Fixtures.demo))
    #expect(!a.contains("\u{1B}"))
    #expect(a.contains("\\u001b[31m"))
  }

  @Test func asciiModeHasOnlyASCIIBesidesUserData() {
    let expandedAll = SectionStates(expanded: [.expenses: true, .trends: true])
    for (name, report) in Fixtures.all where name != "many" {
      for width in [20, 40, 80, 132] {
        let text = TextRenderer(
          options: RenderOptions(width: width, glyphs: .ascii, details: true, sections: expandedAll)
        )
        .render(report)
        // User data in these fixtures: "Trattoria Da Enzo — …", "Visa ••4821", "Hôtel des Arts".
        var scrubbed = text
        for data in ["—", "••", "ô"] { scrubbed = scrubbed.replacingOccurrences(of: data, with: "") }
        #expect(scrubbed.unicodeScalars.allSatisfy { $0.isASCII }, "\(name) at \(width) has non-ASCII glyphs")
      }
    }
  }

  @Test func colourOnlyWhenAsked() {
    for (_, report) in Fixtures.all {
      let plain = TextRenderer(options: RenderOptions(width: 80)).render(report)
      #expect(!plain.contains("\u{1B}"))
    }
    let coloured = TextRenderer(options: RenderOptions(width: 80, color: true)).render(Fixtures.demo)
    #expect(coloured.contains("\u{1B}[31m"))
    // Colour adds nothing to the text: stripped of SGR it is the colourless output.
    let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(stripped == TextRenderer(options: RenderOptions(width: 80)).render(Fixtures.demo))
  }

  @Test func userTextIsSanitizedEverywhere() {
    let options = RenderOptions(width: 80, details: true, sections: SectionStates(expanded: [.expenses: true]))
    let text = TextRenderer(options: options).render(Fixtures.demo)
    #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
    #expect(text.contains("Flowers^[[31m for Mum^G"))
    let list = ExpenseListRenderer(width: 40, glyphs: .unicode).render(Fixtures.demo.expenses!)
    #expect(!list.contains("\u{1B}"))
    let markdown = MarkdownRenderer(sections: SectionStates(expanded: [.expenses: true])).render(Fixtures.demo)
    #expect(!markdown.contains("\u{1B}"))
    let html = HTMLRenderer(sections: .standard).render(Fixtures.demo)
    #expect(!html.contains("\u{1B}") && !html.contains("<script"))
  }

  @Test func emptyMonthSaysSoWithAHint() {
    let text = TextRenderer(options: RenderOptions(width: 40)).render(Fixtures.empty)
    #expect(text.contains("No expenses or budgets for October 2026."))
    #expect(text.contains("expenses import FILE"))
  }

  @Test func csvQuotesAndNeutralisesFormulas() {
    #expect(CSVField.quoted("a,b") == "\"a,b\"")
    #expect(CSVField.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVWriter.text("=SUM(A1)") == "'=SUM(A1)")
    let csv = CSVRenderer(sections: .standard).render(Fixtures.twoCurrencies)
    #expect(csv.hasPrefix("month,currency,category,budget,spent"))
    #expect(csv.contains("2026-09,EUR,Museums,,24.00,,,unbudgeted,"))
  }
}

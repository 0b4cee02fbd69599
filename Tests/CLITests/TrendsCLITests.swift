import Foundation
import Testing

/// Months side by side through the built binary, on the 18-month recurring fixture with a
/// budget: as many months as fit each width, each cell's status, the same days of last month at
/// wide widths, cards at 40, and every line within the width from 20 to 200 columns.
@Suite struct TrendsCLITests {
  func ledger() throws -> CLI {
    let cli = try CLI()
    #expect(try cli.run(["import", RecurringCLITests.fixture]).code == 0)
    #expect(try cli.run(["categories", "set-kind", "Salary", "income"]).code == 0)
    #expect(try cli.run(["budget", "set", "Groceries", "850"]).code == 0)
    return cli
  }

  func trends(_ cli: CLI, width: Int, _ more: [String] = []) throws -> [String] {
    let shown = try cli.run(
      ["report", "--today", "2026-11-20", "--expand", "trends", "--width", String(width)] + more)
    #expect(shown.code == 0, "\(shown.stderr)")
    return Array(
      shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        .drop { !$0.contains("Trends (") })
  }

  @Test func asManyMonthsAsFitWithTheirStatus() throws {
    let cli = try ledger()
    let wide = try trends(cli, width: 200)
    #expect(wide.first == "▼ Trends (12 months)", "\(wide)")
    #expect(wide[2].hasPrefix("Category") && wide[2].hasSuffix("Nov   Oct 1-21"), "\(wide[2])")
    // Groceries against $850: over in February (823.38? no: 904.19 in March), near below it.
    let groceries = try #require(wide.first { $0.hasPrefix("Groceries") })
    #expect(groceries.contains("$904.19▲") && groceries.contains("$823.38●"), "\(groceries)")
    #expect(try trends(cli, width: 100).first == "▼ Trends (6 months)")
    let cards = try trends(cli, width: 40)
    #expect(cards.first == "▼ Trends (12 months)" && cards.contains { $0.hasPrefix("Groceries ") })
    #expect(cards.contains { $0.hasPrefix("  Dec $526.95") }, "\(cards)")
    #expect(try trends(cli, width: 200, ["--months", "3"]).first == "▼ Trends (3 months)")
    let plain = try cli.run(["report", "--today", "2026-11-20", "--expand", "trends", "--width", "80", "--plain"])
    #expect(
      plain.words.contains("Mar $904.19 (over)") && plain.words.contains("Oct to the same day"), "\(plain.stdout)")
  }

  @Test func everyWidthFits() throws {
    let cli = try ledger()
    for width in 20...200 {
      let shown = try cli.run(
        ["report", "--today", "2026-11-20", "--expand", "trends", "--width", String(width)])
      let check = try independentWidthCheck(shown.stdout, width: width)
      #expect(check.ok, "\(width): \(check.message)")
    }
  }
}

import Foundation
import Testing

/// A year of a household's budget, computed by hand, checked in every format the built binary
/// writes: `Fixtures/budgets/twelve-months.csv` (January to November 2026, as of 2026-11-20).
///
/// The budgets, as a user sets them:
/// - Groceries $400 a month, rollover `all` from January; $50 moved to it from Dining out in
///   October (its October budget is $450).
/// - Dining out $200 a month, rollover `surplus` from January (October: $150 after the move).
/// - Travel $2,400 a year.
/// - A goal: Holiday, $3,000 by June 2027 in Savings, added in July 2026.
///
/// The carries, month by month (available = budget + carried in − spent; `all` carries it
/// whole, `surplus` only when it is not negative):
///
/// | month | Groceries spent | carried in | available | Dining spent | carried in | available |
/// |---|---:|---:|---:|---:|---:|---:|
/// | Jan | 350 | 0 | 50 | 150 | 0 | 50 |
/// | Feb | 480 | +50 | −30 | 260 | +50 | −10 |
/// | Mar | 400 | −30 | −30 | 180 | 0 | 20 |
/// | Apr | 300 | −30 | 70 | 230 | +20 | −10 |
/// | May | 420 | +70 | 50 | 190 | 0 | 10 |
/// | Jun | 410 | +50 | 40 | 200 | +10 | 10 |
/// | Jul | 390 | +40 | 50 | 150 | +10 | 60 |
/// | Aug | 500 | +50 | −50 | 220 | +60 | 40 |
/// | Sep | 380 | −50 | −30 | 210 | +40 | 30 |
/// | Oct | 400 (budget 450) | −30 | 20 | 120 (budget 150) | +30 | 60 |
/// | Nov | 360 | +20 | 60 | 100 | +60 | 160 |
///
/// Travel spent 600 in March, 900 in July and 300 in November: in November 1,800 of 2,400,
/// 600 left, 75 % used; November's share of the year is 2,400 × 334 ÷ 365 − 2,400 × 304 ÷ 365
/// = 2,196.16 − 1,998.90 = 197.26; its pace on the 20th is 2,400 × 324 ÷ 365 = 2,130.41.
/// November's total: budget 400 + 200 + 197.26 = 797.26; carried in 20 + 60 = 80; the budgeted
/// categories spent 360 + 100 + 300 = 760, so 797.26 + 80 − 760 = 117.26 is left.
/// Holiday: 200 + 250 + 200 + 300 + 250 = 1,200 set aside by November; 1,800 to go over the 8
/// months November to June: 225.00 a month; even saving from July would have set aside
/// 3,000 × 4 ÷ 12 = 1,000 before November, so it is on track.
@Suite struct TwelveMonthLedgerTests {
  static let groceriesCarries = [0, 5000, -3000, -3000, 7000, 5000, 4000, 5000, -5000, -3000, 2000]
  static let diningCarries = [0, 5000, 0, 2000, 0, 1000, 1000, 6000, 4000, 3000, 6000]
  static let today = "2026-11-20"

  static func ledger() throws -> CLI {
    let cli = try CLI()
    let steps: [[String]] = [
      ["import", CLI.fixture("budgets/twelve-months.csv")],
      ["budget", "set", "Groceries", "400", "--rollover", "all", "--today", "2026-01-01"],
      ["budget", "set", "Dining out", "200", "--rollover", "surplus", "--today", "2026-01-01"],
      ["budget", "set", "Travel", "2400", "--period", "year"],
      ["budget", "move", "50", "Dining out", "Groceries", "--month", "2026-10"],
      ["goal", "add", "Holiday", "3000", "--by", "2027-06", "--category", "Savings", "--today", "2026-07-15"],
    ]
    for step in steps {
      let run = try cli.run(step)
      #expect(run.code == 0, "\(step): \(run.stderr)")
    }
    return cli
  }

  static func report(_ cli: CLI, month: String) throws -> [String: Any] {
    try #require(
      try cli.json(["report", "--month", month, "--today", today, "--format", "json"]) as? [String: Any])
  }

  static func row(_ report: [String: Any], _ category: String) -> [String: Any]? {
    let groups = report["groups"] as? [[String: Any]] ?? []
    return groups.first?["categories"].flatMap { $0 as? [[String: Any]] }?.first {
      $0["category"] as? String == category
    }
  }

  static func month(_ index: Int) -> String { String(format: "2026-%02d", index + 1) }

  @Test func everyCarryAndTheYearlyBudgetEqualTheHandComputation() throws {
    let cli = try Self.ledger()
    let groceriesBudget = [40000, 40000, 40000, 40000, 40000, 40000, 40000, 40000, 40000, 45000, 40000]
    let diningBudget = [20000, 20000, 20000, 20000, 20000, 20000, 20000, 20000, 20000, 15000, 20000]
    let groceriesSpent = [35000, 48000, 40000, 30000, 42000, 41000, 39000, 50000, 38000, 40000, 36000]
    let diningSpent = [15000, 26000, 18000, 23000, 19000, 20000, 15000, 22000, 21000, 12000, 10000]
    for index in 0..<11 {
      let month = Self.month(index)
      let report = try Self.report(cli, month: month)
      let groceries = try #require(Self.row(report, "Groceries"), "\(month)")
      let dining = try #require(Self.row(report, "Dining out"), "\(month)")
      #expect(groceries["budgetMinor"] as? Int == groceriesBudget[index], "\(month)")
      #expect(groceries["carriedInMinor"] as? Int == Self.groceriesCarries[index], "\(month) Groceries carry")
      #expect(
        groceries["availableMinor"] as? Int
          == groceriesBudget[index] + Self.groceriesCarries[index] - groceriesSpent[index], "\(month) Groceries")
      #expect(dining["carriedInMinor"] as? Int == Self.diningCarries[index], "\(month) Dining carry")
      #expect(
        dining["availableMinor"] as? Int == diningBudget[index] + Self.diningCarries[index] - diningSpent[index],
        "\(month) Dining")
      let months = groceries["carriedFromMonths"] as? [String] ?? []
      #expect(months == (0..<index).map(Self.month), "\(month): the months the carry came through")
    }
    let november = try Self.report(cli, month: "2026-11")
    let travel = try #require(Self.row(november, "Travel"))
    #expect(travel["period"] as? String == "year")
    #expect(travel["periodFrom"] as? String == "2026-01" && travel["periodThrough"] as? String == "2026-12")
    #expect(travel["budgetMinor"] as? Int == 240000)
    #expect(travel["spentMinor"] as? Int == 30000, "the month's own spending")
    #expect(travel["periodSpentMinor"] as? Int == 180000)
    #expect(travel["remainingMinor"] as? Int == 60000)
    #expect(travel["percentUsed"] as? Double == 75.0)
    #expect(travel["monthShareMinor"] as? Int == 19726)
    #expect(travel["paceMinor"] as? Int == 213041)
    let totals = try #require((november["groups"] as? [[String: Any]])?.first?["totals"] as? [String: Any])
    #expect(totals["budgetMinor"] as? Int == 79726, "the year's budget counts its month's share, once")
    #expect(totals["carriedInMinor"] as? Int == 8000)
    #expect(totals["remainingMinor"] as? Int == 11726)
    let goal = try #require((november["goals"] as? [[String: Any]])?.first)
    #expect(goal["savedMinor"] as? Int == 120000)
    #expect(goal["monthsLeft"] as? Int == 8)
    #expect(goal["monthlyNeedMinor"] as? Int == 22500)
    #expect(goal["status"] as? String == "onTrack")
    // July: Travel's year so far is March's 600 and July's 900.
    let july = try #require(Self.row(try Self.report(cli, month: "2026-07"), "Travel"))
    #expect(july["periodSpentMinor"] as? Int == 150000 && july["remainingMinor"] as? Int == 90000)
    #expect(july["monthShareMinor"] as? Int == 20383)
    // The shares of the twelve months add up to the year's amount.
    var shares = 0
    for index in 0..<12 {
      let report = try Self.report(cli, month: Self.month(index))
      shares += Self.row(report, "Travel")?["monthShareMinor"] as? Int ?? 0
    }
    #expect(shares == 240000)
    // `check` recomputes every carry from the rows.
    let check = try cli.run(["check"])
    #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test func editingAnOldRowMovesEveryLaterCarryByItsAmount() throws {
    let cli = try Self.ledger()
    let march = try #require(
      (try cli.json(["list", "--month", "2026-03", "--format", "json"]) as? [[String: Any]])?.first {
        $0["description"] as? String == "FRESHMART #103"
      })
    let id = try #require(march["id"] as? Int)
    // 200.00 → 210.00: March's Groceries spent 10 more; under `all` every later carry is 10 less.
    let edit = try cli.run(["edit", String(id), "--amount", "210.00"])
    #expect(edit.code == 0, "\(edit.stderr)")
    for index in 0..<11 {
      let month = Self.month(index)
      let groceries = try #require(Self.row(try Self.report(cli, month: month), "Groceries"))
      let expected = Self.groceriesCarries[index] - (index > 2 ? 1000 : 0)
      #expect(groceries["carriedInMinor"] as? Int == expected, "\(month)")
    }
  }

  @Test func everyFormatStatesTheSameFigures() throws {
    let cli = try Self.ledger()
    func output(_ arguments: [String]) throws -> String {
      let run = try cli.run(["report", "--month", "2026-11", "--today", Self.today] + arguments)
      #expect(run.code == 0, "\(arguments): \(run.stderr)")
      return run.stdout
    }
    for width in [40, 80, 120] {
      let text = try output(["--width", String(width), "--expand", "goals", "--expand", "category-performance"])
      let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      // The cards of 40 columns say the year's figures on the row; the tables in the note under it.
      let rowFigures = width == 40 ? ["$1,800.00 of $2,400.00 in 2026", "$600.00 left"] : ["$2,400.00/yr", "$600.00"]
      for figure in rowFigures + [
        "+$20.00", "+$60.00", "$1,800.00 spent in 2026", "$197.26", "needs $225.00/mo", "on track",
      ] {
        #expect(words.contains(figure), "width \(width): \(figure)\n\(text)")
      }
      let check = try independentWidthCheck(text, width: width)
      #expect(check.ok, "width \(width): \(check.message)")
    }
    let markdown = try output(["--format", "md", "--expand", "goals"])
    for figure in ["| +$20.00 |", "| $2,400.00/yr |", "| $600.00 |", "| $797.26 |", "$197.26", "needs $225.00/mo"] {
      #expect(markdown.contains(figure), "markdown: \(figure)")
    }
    let html = try output(["--format", "html", "--expand", "goals"])
    for figure in ["+$20.00", "$2,400.00/yr", "$600.00", "$797.26", "$197.26", "needs $225.00/mo"] {
      #expect(html.contains(figure), "html: \(figure)")
    }
    let csv = try output(["--format", "csv"])
    let lines = csv.split(separator: "\r\n").map { $0.components(separatedBy: ",") }
    let header = try #require(lines.first)
    func cell(_ category: String, _ column: String) -> String? {
      guard let index = header.firstIndex(of: column), let categoryIndex = header.firstIndex(of: "category") else {
        return nil
      }
      return lines.first { $0.count > categoryIndex && $0[categoryIndex] == category }?[index]
    }
    #expect(cell("Groceries", "carried_in") == "20.00" && cell("Groceries", "available") == "60.00")
    #expect(cell("Dining out", "carried_in") == "60.00" && cell("Dining out", "available") == "160.00")
    #expect(cell("Travel", "period") == "year" && cell("Travel", "period_spent") == "1800.00")
    #expect(cell("Travel", "month_share") == "197.26" && cell("Travel", "remaining") == "600.00")
    #expect(cell("Total", "budget") == "797.26")
    // A copy holds the same budgets, terms, moves and goal: its report is the same bytes.
    let copy = cli.directory.appendingPathComponent("copy.sqlite").path
    let copied = try cli.run(["copy", "--from", cli.db, "--to", copy], useDatabase: false)
    #expect(copied.code == 0, "\(copied.stderr)")
    let fromCopy = try cli.run(
      ["report", "--month", "2026-11", "--today", Self.today, "--format", "json", "--db", copy], useDatabase: false)
    let original = try cli.run(["report", "--month", "2026-11", "--today", Self.today, "--format", "json"])
    #expect(fromCopy.code == 0 && fromCopy.stdout == original.stdout)
  }

  @Test func hledgerReadsTheYearlyBudgetAndTheMovesFromTheExport() throws {
    guard let hledger = ExternalTool.require("hledger", install: "apt-get install hledger") else { return }
    let cli = try Self.ledger()
    let journal = cli.directory.appendingPathComponent("year.journal").path
    #expect(try cli.run(["export", "--format", "ledger", "-o", journal]).code == 0)
    let text = try String(contentsOfFile: journal, encoding: .utf8)
    #expect(text.contains("~ yearly"), "the yearly budget as a yearly periodic transaction")
    var accountOf: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("account ") {
      let parts = line.dropFirst(8).components(separatedBy: "  ; ")
      if parts.count == 2 { accountOf[parts[1]] = parts[0] }
    }
    // The year to date (January to November): hledger's budget and actual of each account.
    let result = try ExternalTool.run(
      hledger, ["-f", journal, "balance", "--budget", "--flat", "-b", "2026-01-01", "-e", "2026-12-01", "-O", "csv"])
    #expect(result.code == 0, "hledger: \(result.stderr)")
    var budgets: [String: (actual: Int, budget: Int)] = [:]
    for line in result.stdout.split(separator: "\n").dropFirst() {
      let cells = line.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r")).components(separatedBy: "\",\"")
      // "1,800.00 USD": the number before the commodity, without its thousands separators.
      func minor(_ cell: String) -> Double? {
        Double(cell.split(separator: " ").first.map { $0.replacingOccurrences(of: ",", with: "") } ?? "")
      }
      guard cells.count == 3, let actual = minor(cells[1]), let budget = minor(cells[2]) else { continue }
      budgets[cells[0]] = (Int((actual * 100).rounded()), Int((budget * 100).rounded()))
    }
    let travelAccount = try #require(accountOf["name: Travel"])
    let groceries = try #require(accountOf["name: Groceries"])
    let dining = try #require(accountOf["name: Dining out"])
    let travel = try #require(budgets[travelAccount], "\(result.stdout)")
    #expect(travel.actual == 180000 && travel.budget == 240000, "the report's 1,800 of 2,400")
    // Eleven months of $400, and October's $50 more; of $200, and October's $50 less.
    #expect(budgets[groceries]?.budget == 11 * 40000 + 5000)
    #expect(budgets[dining]?.budget == 11 * 20000 - 5000)
  }

  @Test func beanCheckAcceptsTheYearlyBudget() throws {
    guard let beanCheck = ExternalTool.require("bean-check", install: "pip install beancount") else { return }
    let cli = try Self.ledger()
    let file = cli.directory.appendingPathComponent("year.beancount").path
    #expect(try cli.run(["export", "--format", "beancount", "-o", file]).code == 0)
    let result = try ExternalTool.run(beanCheck, [file])
    #expect(result.code == 0 && result.stderr.isEmpty, "bean-check: \(result.stdout)\(result.stderr)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains("\"yearly\" 2400.00 USD"), "Fava's yearly budget")
  }
}

import Foundation
import Testing

/// The report's numbers at the user level: the README quick start gives a positive "Spent", money that is
/// not spending has its own lines, transfers are a kind, and the JSON says what numbers stand on.
@Suite struct NumbersTests {
  /// The signed amounts of a fixture's `Amount` column (4th field), in cents.
  func amounts(ofFixture name: String) throws -> [Int64] {
    let text = try String(contentsOfFile: CLI.fixture("import/\(name)"), encoding: .utf8)
    return text.split(separator: "\n").dropFirst().map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      let amount = fields[fields.count - 5]  // ...,Amount,Type,Balance,Check,(empty)
      let parts = amount.split(separator: ".")
      let whole = Int64(parts[0])!
      let cents = Int64(parts.count > 1 ? parts[1] : "0")!
      return whole * 100 + (whole < 0 || parts[0].hasPrefix("-") ? -cents : cents)
    }
  }

  func group(_ json: Any) throws -> [String: Any] {
    let report = try #require(json as? [String: Any])
    return try #require((report["groups"] as? [[String: Any]])?.first)
  }

  @Test func quickStartSpentIsMoneyOutMinusRefunds() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let amounts = try amounts(ofFixture: "us_checking.csv")
    // The file has no categories: every money-out row is spending, every money-in row unsorted.
    let spent = -amounts.filter { $0 < 0 }.reduce(0, +)
    let moneyIn = amounts.filter { $0 > 0 }
    #expect(spent > 0 && !moneyIn.isEmpty)

    #expect(try cli.run(["import", CLI.fixture("import/us_checking.csv")]).code == 0)
    #expect(try cli.run(["budget", "set", "Groceries", "400"]).code == 0)
    let report = ["report", "--month", "2026-10", "--today", "2026-10-22", "--color", "never"]
    let text = try cli.run(report + ["--width", "80"])
    #expect(text.code == 0, "\(text.stderr)")
    let spentText = "$" + String(spent / 100) + "." + String(format: "%02d", spent % 100)
    // The headline compares budgeted spending with the budget; all spending is the line's total.
    #expect(text.stdout.contains("Spent $0.00 of $400.00"), "\(text.stdout)")
    #expect(text.stdout.contains("· total \(spentText)"), "\(text.stdout)")
    #expect(!text.stdout.contains("Spent -"))
    #expect(!text.stdout.contains("-5"), "no negative percent or amount: \(text.stdout)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("Unsorted money in $2,500.00 · 1 row · sort: expenses rules add") })

    let json = try group(try cli.json(report + ["--format", "json"]))
    #expect((json["totals"] as? [String: Any])?["spentMinor"] as? Int64 == spent)
    #expect(json["unsortedInMinor"] as? Int64 == moneyIn.reduce(0, +))
    #expect(json["unsortedInCount"] as? Int == moneyIn.count)
    #expect(json["transfersMinor"] as? Int64 == 0)

    // Sorting the payroll as income, and a file with moves between one's own accounts: each
    // has its own line, and Spent does not move.
    #expect(try cli.run(["rules", "add", "payroll", "Salary"]).code == 0)
    #expect(try cli.run(["rules", "apply"]).code == 0)
    #expect(try cli.run(["categories", "set-kind", "Salary", "income"]).code == 0)
    let moves = try cli.file(
      "savings.csv",
      """
      Date,Description,Amount
      2026-10-09,Online Transfer to SAV ...4411,-300.00
      2026-10-12,Top-Up by *1234,-50.00
      2026-10-13,Transfer from SAV ...4411,25.00
      """)
    #expect(try cli.run(["import", moves]).code == 0)
    let after = try cli.run(report + ["--width", "80"])
    let afterLines = after.stdout.split(separator: "\n").map(String.init)
    #expect(afterLines.contains { $0.hasSuffix("· total \(spentText)") }, "\(after.stdout)")
    #expect(afterLines.contains("Income $2,500.00"))
    #expect(afterLines.contains("Transfers $325.00 out · 3 rows"))
    #expect(!after.stdout.contains("Unsorted money in"))
    let categories = try cli.run(["categories"])
    let rows = categories.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(rows.contains(["Transfers", "transfer", "3"]), "\(categories.stdout)")
    #expect(rows.contains(["Salary", "income", "1"]), "\(categories.stdout)")
  }

  @Test func aUserRuleAndTheFilesCategoryBeatTheBuiltInPatterns() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["rules", "add", "top-up", "Travel money"]).code == 0)
    let file = try cli.file(
      "bank.csv",
      """
      Date,Description,Amount,Category
      2026-10-12,Top-Up by *1234,-50.00,
      2026-10-13,Transfer to Anna,-20.00,Gifts
      2026-10-14,PAYMENT THANK YOU,-500.00,
      """)
    #expect(try cli.run(["import", file]).code == 0)
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    let byDescription = Dictionary(uniqueKeysWithValues: rows.map { ($0["description"] as! String, $0["category"]) })
    #expect(byDescription["Top-Up by *1234"] as? String == "Travel money")
    #expect(byDescription["Transfer to Anna"] as? String == "Gifts")
    #expect(byDescription["PAYMENT THANK YOU"] as? String == "Transfers")
  }

  @Test func setKindAcceptsTransferAndRejectsOthers() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let set = try cli.run(["categories", "set-kind", "Card payment", "transfer", "--create"])
    #expect(set.code == 0 && set.stdout.contains("Card payment is now a transfer category"))
    let listed = try cli.run(["categories"]).stdout.split(separator: "\n")
    #expect(listed.contains { $0.hasPrefix("Card payment") && $0.contains(" transfer ") && $0.hasSuffix(" 0") })
    let bad = try cli.run(["categories", "set-kind", "Card payment", "savings"])
    #expect(bad.code == 64)
    #expect(bad.stderr.contains("'expense', 'income' or 'transfer'"))
  }

  @Test func rentProjectsToWhatWasPaidAndAveragesNameTheirMonths() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    for month in ["08", "09", "10"] {
      #expect(try cli.run(["add", "2026-\(month)-01", "1500", "Rent", "--category", "Rent"]).code == 0)
      #expect(try cli.run(["add", "2026-\(month)-05", "20", "Cinema", "--category", "Fun"]).code == 0)
    }
    #expect(try cli.run(["budget", "set", "Rent", "1500"]).code == 0)
    let json = try group(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"]))
    let rows = try #require(json["categories"] as? [[String: Any]])
    let rent = try #require(rows.first { $0["category"] as? String == "Rent" })
    #expect(rent["projectedMinor"] as? Int64 == 150_000)  // not 1500 × 31 / 20
    #expect(rent["paceMinor"] as? Int64 == 150_000)
    #expect(rent["projectionBasis"] as? String == "history")
    #expect(rent["averageMonths"] as? Int == 2)
    #expect(rent["kind"] as? String == "expense")
    let wide = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20", "--width", "132"])
    #expect(wide.stdout.contains("2-mo avg"), "\(wide.stdout)")
    #expect(!wide.stdout.contains("3-mo avg"))

    // A month after today: no pace, no projection, no change against the average.
    let future = try group(
      try cli.json(["report", "--month", "2026-12", "--today", "2026-10-20", "--format", "json"]))
    let futureRent = try #require(
      (future["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "Rent" })
    #expect(futureRent["paceMinor"] is NSNull && futureRent["projectedMinor"] is NSNull)
    #expect(futureRent["changeFromAveragePercent"] is NSNull && futureRent["projectionBasis"] is NSNull)
    let futureText = try cli.run(["report", "--month", "2026-12", "--today", "2026-10-20", "--width", "132"])
    #expect(!futureText.stdout.contains("-100%"))
  }

  @Test func demoRentProjectsToWhatWasPaid() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let json = try cli.run(["demo", "--format", "json"], useDatabase: false)
    let group = try group(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)))
    let rent = try #require((group["categories"] as? [[String: Any]])?.first { $0["category"] as? String == "Rent" })
    #expect(rent["projectedMinor"] as? Int64 == rent["spentMinor"] as? Int64)
    #expect(rent["projectionBasis"] as? String == "history")
  }

  @Test func reportHelpExplainsPaceAndProjection() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let help = try cli.run(["report", "--help"], useDatabase: false)
    #expect(help.stdout.contains("Pace: what a category should have spent by today"))
    #expect(help.stdout.contains("Projected: what it will have spent at month end"))
  }
}

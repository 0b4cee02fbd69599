import Foundation
import Testing

/// delete, edit, imports, imports remove, rules apply --dry-run and provenance, one name per
/// category with "did you mean", and demo --keep, through the built binary.
@Suite struct UndoCLITests {
  func rows(_ cli: CLI) throws -> [[String: Any]] {
    try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
  }

  @Test func deleteIsAllOrNothing() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    try cli.run(["add", "2026-10-01", "4.50", "Coffee"])
    try cli.run(["add", "2026-10-02", "12", "Lunch", "--category", "Food"])
    let before = try cli.run(["list", "--format", "json"]).stdout
    let refused = try cli.run(["delete", "1", "77"])
    #expect(refused.code == 64)
    #expect(refused.stderr.contains("77") && refused.stderr.contains("nothing was changed"))
    #expect(try cli.run(["list", "--format", "json"]).stdout == before, "an unknown id deletes nothing")
    let deleted = try cli.run(["delete", "2"])
    #expect(deleted.code == 0 && deleted.stdout.contains("Deleted #2"))
    #expect(try rows(cli).map { $0["id"] as? Int } == [1])
    let report = try #require(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"]) as? [String: Any])
    let groups = try #require(report["groups"] as? [[String: Any]])
    let categories = try #require(groups.first?["categories"] as? [[String: Any]])
    #expect(!categories.contains { $0["category"] as? String == "Food" }, "the rollup lost the deleted row")
  }

  @Test func editKeepsTheIdAndReadsTheRowsCurrency() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    try cli.run(["add", "2026-10-01", "500", "Ramen", "--currency", "JPY"])
    let edited = try cli.run(["edit", "1", "--amount", "1200", "--category", "Dining out", "--date", "2026-10-03"])
    #expect(edited.code == 0, "\(edited.stderr)")
    let row = try #require(try rows(cli).first)
    #expect(row["id"] as? Int == 1)
    #expect(row["amountMinor"] as? Int == -1200, "JPY has no minor digits")
    #expect(row["currency"] as? String == "JPY")
    #expect(row["date"] as? String == "2026-10-03")
    #expect(row["category"] as? String == "Dining out")
    #expect(try cli.run(["edit", "1", "--amount", "12.345"]).code == 64, "JPY takes no decimals")
    #expect(try cli.run(["edit", "9", "--amount", "1"]).code == 64)
    #expect(try cli.run(["edit", "1"]).code == 64, "nothing to change is a usage error")
  }

  @Test func importsAreListedAndRemovedExactly() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    try cli.run(["add", "2026-10-05", "3", "By hand"])
    let file = CLI.fixture("import/us_checking.csv")
    #expect(try cli.run(["import", file]).code == 0)
    let second = try cli.file(
      "more.csv", "Date,Description,Amount\n2026-11-02,Bakery,-4.20\n2026-11-03,Bakery,-3.80\n")
    let secondRun = try cli.run(["import", second])
    #expect(secondRun.stdout.contains("Undo with: expenses imports remove 2"), "\(secondRun.stdout)")
    let again = try #require(try cli.json(["import", second, "--format", "json"]) as? [String: Any])
    #expect(
      again["new"] as? Int == 0 && again["importId"] is NSNull, "an import that adds nothing has no record (null)")
    let records = try #require(try cli.json(["imports", "--format", "json"]) as? [[String: Any]])
    #expect(records.count == 2)
    for key in ["id", "file", "importedAt", "rows", "firstDate", "lastDate"] {
      #expect(records.allSatisfy { $0.keys.contains(key) }, "every import has \(key)")
    }
    #expect(records[0]["file"] as? String == "us_checking.csv")
    #expect(records[0]["rows"] as? Int == 6)
    #expect(records[0]["firstDate"] as? String == "2026-10-01")
    #expect(records[0]["lastDate"] as? String == "2026-10-20")
    let stamp = try #require(records[0]["importedAt"] as? String)
    #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "ISO 8601 UTC: \(stamp)")
    let text = try cli.run(["imports"])
    #expect(text.stdout.contains("us_checking.csv") && text.stdout.contains("6 rows added"))
    #expect(text.stdout.contains("2026-10-01 to 2026-10-20"))

    let removed = try cli.run(["imports", "remove", String(try #require(records[0]["id"] as? Int))])
    #expect(removed.code == 0 && removed.stdout.contains("6 rows deleted"), "\(removed.stderr)")
    #expect(try rows(cli).map { $0["description"] as? String } == ["Bakery", "Bakery", "By hand"])
    let remaining = try #require(try cli.json(["imports", "--format", "json"]) as? [[String: Any]])
    #expect(remaining.map { $0["file"] as? String } == ["more.csv"])
    let missing = try cli.run(["imports", "remove", "99"])
    #expect(missing.code == 64 && missing.stderr.contains("no import with id 99"))
    // Taken out of the rollup: October has only the hand-added row.
    let report = try #require(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"]) as? [String: Any])
    let groups = try #require(report["groups"] as? [[String: Any]])
    let totals = try #require(groups.first?["totals"] as? [String: Any])
    #expect(totals["spentMinor"] as? Int == 300)
  }

  @Test func rulesApplyLeavesFileAndHandCategoriesAlone() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let file = try cli.file(
      "bank.csv",
      """
      Date,Description,Amount,Category
      2026-10-01,Corner Market,-10.00,Snacks
      2026-10-02,Farmers market,-20.00,
      2026-10-03,Market hall,-30.00,
      """)
    #expect(try cli.run(["import", file]).code == 0)
    try cli.run(["add", "2026-10-04", "40", "Night market", "--category", "Treats"])
    try cli.run(["rules", "add", "market", "Groceries"])
    let listed = try cli.run(["list", "--format", "json"]).stdout
    let dry = try cli.run(["rules", "apply", "--dry-run"])
    #expect(dry.code == 0)
    #expect(dry.stdout == "Would re-categorize 2 expenses\n  Groceries: 2\n")
    #expect(try cli.run(["list", "--format", "json"]).stdout == listed, "a dry run writes nothing")
    let applied = try cli.run(["rules", "apply"])
    #expect(applied.stdout.hasPrefix("Re-categorized 2 expenses"))
    let categories = Dictionary(
      uniqueKeysWithValues: try rows(cli).map { ($0["description"] as! String, $0["category"] as? String) })
    #expect(
      categories == [
        "Corner Market": "Snacks", "Farmers market": "Groceries", "Market hall": "Groceries", "Night market": "Treats",
      ])
  }

  @Test func oneCategoryOneNameAndDidYouMean() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    try cli.run(["add", "2026-10-01", "5", "a", "--category", "Groceries"])
    try cli.run(["add", "2026-10-02", "6", "b", "--category", "groceries "])
    try cli.run(["add", "2026-10-03", "7", "c", "--category", "GROCERIES"])
    let categories = try #require(try cli.json(["categories", "--format", "json"]) as? [[String: Any]])
    #expect(categories.map { $0["name"] as? String } == ["Groceries"])
    #expect(categories.first?["expenseCount"] as? Int == 3)

    let same = try cli.run(["budget", "set", "grocery  stuff ", "400"])
    #expect(same.stderr.isEmpty, "a new name far from every category")
    let budgetSpelling = try cli.run(["budget", "set", "GROCERIES ", "400"])
    #expect(budgetSpelling.code == 0 && budgetSpelling.stderr.isEmpty, "the same category is no near miss")
    let renamed = try #require(try cli.json(["categories", "--format", "json"]) as? [[String: Any]])
    #expect(renamed.map { $0["name"] as? String } == ["GROCERIES", "grocery stuff"], "a budget's spelling wins")
    let near = try cli.run(["budget", "set", "Grocerys", "50"])
    #expect(near.code == 0)
    #expect(near.stderr.contains("did you mean 'GROCERIES'?"))
    let budgets = try #require(try cli.json(["budget", "list", "--format", "json"]) as? [[String: Any]])
    #expect(
      Set(budgets.compactMap { $0["category"] as? String }) == ["GROCERIES", "Grocerys", "grocery stuff"],
      "set as asked")
    let far = try cli.run(["budget", "set", "Travel", "100"])
    #expect(far.stderr.isEmpty)
  }

  @Test func importedSpellingsOfACategoryAreOne() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    try cli.run(["budget", "set", "Dining Out", "100"])
    let file = try cli.file(
      "bank.csv",
      """
      Date,Description,Amount,Category
      2026-10-01,A,-1.00,groceries
      2026-10-02,B,-2.00,GROCERIES
      2026-10-03,C,-3.00,"  Groceries "
      2026-10-04,D,-4.00,dining  out
      """)
    #expect(try cli.run(["import", file]).code == 0)
    let categories = try #require(try cli.json(["categories", "--format", "json"]) as? [[String: Any]])
    #expect(categories.map { $0["name"] as? String } == ["Dining Out", "groceries"])
    #expect(categories.map { $0["expenseCount"] as? Int } == [1, 3])
  }

  @Test func builtInTransfersJoinTheStoredSpellingAndRulesMayResortThem() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    try cli.run(["add", "2026-10-01", "+100", "Moved by hand", "--category", "transfers"])
    let file = try cli.file(
      "bank.csv", "Date,Description,Amount\n2026-10-02,TRANSFER TO SAVINGS,-200.00\n2026-10-03,Shop,-5.00\n")
    #expect(try cli.run(["import", file]).code == 0)
    let categories = try #require(try cli.json(["categories", "--format", "json"]) as? [[String: Any]])
    let transfers = try #require(categories.first { $0["name"] as? String == "transfers" })
    #expect(transfers["expenseCount"] as? Int == 2, "the pattern's 'Transfers' is the stored 'transfers'")
    #expect(transfers["kind"] as? String == "transfer")
    let report = try #require(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"]) as? [String: Any])
    let group = try #require((report["groups"] as? [[String: Any]])?.first)
    #expect((group["totals"] as? [String: Any])?["spentMinor"] as? Int == 500, "transfers are not spending")
    try cli.run(["rules", "add", "savings", "Savings"])
    let dry = try cli.run(["rules", "apply", "--dry-run"])
    #expect(dry.stdout == "Would re-categorize 1 expense\n  Savings: 1\n", "a pattern is a rule; by hand is not")
  }

  @Test func demoKeepRefusesAnExistingFile() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let existing = try cli.file("mine.sqlite", "precious")
    let refused = try cli.run(["demo", "--keep", existing], useDatabase: false)
    #expect(refused.code == 73)
    #expect(refused.stderr.contains(existing) && refused.stderr.contains("already exists"))
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "precious", "untouched")
    #expect(refused.stdout.isEmpty)
    let fresh = cli.directory.appendingPathComponent("demo.sqlite").path
    let kept = try cli.run(["demo", "--keep", fresh, "--width", "80"], useDatabase: false)
    #expect(kept.code == 0, "\(kept.stderr)")
    #expect(FileManager.default.fileExists(atPath: fresh))
    #expect(try cli.run(["list", "--db", fresh], useDatabase: false).stdout.contains("Dining"))
  }
}

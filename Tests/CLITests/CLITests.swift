import Foundation
import TestSupport
import Testing

@Suite struct CLITests {
  let clean = """
    Date,Description,Amount,Category
    2026-10-01,Whole Foods Market,-54.20,Groceries
    2026-10-02,"Thai ""Basil"" House, SF",-23.10,Dining out
    2026-10-03,"Multi
    line memo",-5.00,
    2026-10-05,Salary,2500.00,Salary
    """

  @Test func demoFitsEveryWidth() throws {
    let cli = try CLI()
    for width in [20, 33, 40, 59, 60, 80, 99, 100, 132, 200] {
      let result = try cli.run(["demo", "--width", String(width), "--color", "never"], useDatabase: false)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout.contains("Din"), "the category rows show at width \(width)")
      let verdict = try independentWidthCheck(result.stdout, width: width)
      #expect(verdict.ok, "width \(width): \(verdict.message)")
    }
    print("independent width checks run so far: \(WidthChecker.runs)")
  }

  @Test func demoIsDeterministicAndJSONHasTheContract() throws {
    let cli = try CLI()
    let a = try cli.run(["demo", "--width", "80"], useDatabase: false)
    let b = try cli.run(["demo", "--width", "80"], useDatabase: false)
    #expect(a.stdout == b.stdout)
    let json = try cli.run(["demo", "--format", "json"], useDatabase: false)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(report["month"] as? String == "2026-10")
    #expect(report["today"] as? String == "2026-10-20")
    let groups = try #require(report["groups"] as? [[String: Any]])
    #expect(groups.first?["currency"] as? String == "USD")
    let categories = try #require(groups.first?["categories"] as? [[String: Any]])
    #expect(categories.count >= 8)
    for key in [
      "category", "budgetMinor", "spentMinor", "remainingMinor", "percentUsed", "status",
      "trailingAverageMinor", "changeFromAveragePercent", "paceMinor", "projectedMinor",
    ] {
      #expect(categories.allSatisfy { $0.keys.contains(key) }, "every category has \(key)")
    }
    #expect(categories.contains { $0["status"] as? String == "over" })
    #expect(groups.first?["totals"] is [String: Any])
    let sections = try #require(report["sections"] as? [[String: Any]])
    #expect(
      sections.map { $0["id"] as? String } == [
        "summary", "category-performance", "expenses", "trends", "goals", "accounts", "recurring", "tags",
      ])
    for key in ["id", "title", "collapsible", "expanded", "itemCount"] {
      #expect(sections.allSatisfy { $0.keys.contains(key) })
    }
  }

  @Test func importThenListGivesTheJSONContract() throws {
    let cli = try CLI()
    let path = try cli.file("bank.csv", clean)
    let first = try cli.run(["import", path])
    #expect(first.code == 0, "\(first.stderr)")
    #expect(first.stdout.contains("4 new"))
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(rows.count == 4)
    let memo = try #require(rows.first { ($0["description"] as? String)?.hasPrefix("Multi") == true })
    #expect(memo["amountMinor"] as? Int == -500)
    #expect(memo["currency"] as? String == "USD")
    #expect(memo["category"] is NSNull)
    #expect(memo["account"] is NSNull)
    let source = try #require(memo["source"] as? [String: Any])
    #expect(source["file"] as? String == "bank.csv")
    #expect(source["line"] as? Int == 4)
    let thai = try #require(rows.first { ($0["description"] as? String)?.hasPrefix("Thai") == true })
    #expect(thai["description"] as? String == "Thai \"Basil\" House, SF")
    #expect((thai["source"] as? [String: Any])?["line"] as? Int == 3)
    #expect(rows.first?["date"] as? String == "2026-10-05", "newest first")

    let again = try cli.run(["import", path])
    #expect(again.code == 0)
    #expect(again.stdout.contains("0 new"))
    #expect(again.stdout.contains("4 duplicates"))
    #expect((try cli.json(["list", "--format", "json"]) as? [[String: Any]])?.count == 4)
  }

  @Test func aBadRowWritesNothingAndNamesTheLine() throws {
    let cli = try CLI()
    try cli.run(["add", "2026-10-01", "4.50", "Coffee"])
    let before = try cli.databaseBytes()
    let path = try cli.file("bad.csv", "Date,Description,Amount\n2026-10-01,Ok,-1.00\n2026-10-02,Broken,-12.3x\n")
    let result = try cli.run(["import", path])
    #expect(result.code == 65)
    #expect(result.stderr.contains("bad.csv:3"), "\(result.stderr)")
    #expect(result.stderr.contains("12.3x"))
    #expect(try cli.databaseBytes() == before, "the database is byte-for-byte unchanged")
    #expect((try cli.json(["list", "--format", "json"]) as? [[String: Any]])?.count == 1)
  }

  @Test func badInputGetsSysexitsCodes() throws {
    let cli = try CLI()
    let cases: [([String], Int32, String)] = [
      (["report", "--month", "2026-13"], 64, "2026-13"),
      (["budget", "set", "Food", "--", "-5"], 64, "negative"),
      (["budget", "set", "Food", "-5"], 64, "amount"),
      (["add", "2026-10-01", "12.345", "Coffee"], 64, "12.345"),
      (["import", "/nonexistent/file.csv"], 66, "/nonexistent/file.csv"),
      (["report", "--width", "19"], 64, "20"),
      (["report", "--expand", "nope"], 64, "category-performance"),
      (["add", "2026-02-30", "1", "x"], 64, "2026-02-30"),
      (["budget", "set", "Food", "5", "--currency", "USX"], 64, "USX"),
    ]
    for (arguments, code, mention) in cases {
      let result = try cli.run(arguments)
      #expect(result.code == code, "\(arguments) exited \(result.code): \(result.stderr)")
      #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"), "no crash")
    }
  }

  @Test func databaseOptionWorksBeforeTheSubcommandAndFromTheEnvironment() throws {
    let cli = try CLI()
    let first = try cli.run(["--db", cli.db, "add", "2026-10-01", "3", "Bus"], useDatabase: false)
    #expect(first.code == 0, "\(first.stderr)")
    let list = try cli.run(["list", "--format", "json"], useDatabase: false, environment: ["EXPENSES_DB": cli.db])
    #expect(list.stdout.contains("Bus"))
    let xdg = try cli.run(
      ["add", "2026-10-01", "3", "Tram"], useDatabase: false, environment: ["XDG_DATA_HOME": cli.directory.path])
    #expect(xdg.code == 0)
    #expect(
      FileManager.default.fileExists(atPath: cli.directory.appendingPathComponent("expenses/expenses.sqlite").path))
  }

  @Test func sectionPreferencesPersistUntilReset() throws {
    let cli = try CLI()
    try cli.run(["add", "2026-10-01", "3", "Bus", "--category", "Transport"])
    let report = ["report", "--month", "2026-10", "--today", "2026-10-20", "--width", "40", "--color", "never"]
    let initial = try cli.run(report)
    #expect(initial.stdout.contains("▶ Expenses (1)"), "\(initial.stdout)")
    #expect(initial.stdout.contains("▼ Category Performance"))

    #expect(try cli.run(["sections", "collapse", "category-performance"]).code == 0)
    let collapsed = try cli.run(report)
    #expect(collapsed.stdout.contains("▶ Category Performance"))
    #expect(try cli.run(report + ["--expand", "expenses"]).stdout.contains("▼ Expenses (1)"))
    #expect(try cli.run(report).stdout.contains("▶ Expenses (1)"), "one-off without --save")
    try cli.run(report + ["--expand", "expenses", "--save"])
    #expect(try cli.run(report).stdout.contains("▼ Expenses (1)"), "--save remembers")

    #expect(try cli.run(["sections", "reset"]).code == 0)
    let reset = try cli.run(report)
    #expect(reset.stdout.contains("▼ Category Performance") && reset.stdout.contains("▶ Expenses (1)"))

    #expect(try cli.run(["sections", "accordion", "on"]).code == 0)
    try cli.run(["sections", "expand", "trends"])
    let accordion = try cli.run(report)
    #expect(accordion.stdout.contains("▼ Trends"))
    #expect(accordion.stdout.contains("▶ Category Performance") && accordion.stdout.contains("▶ Expenses"))
    let unknown = try cli.run(["sections", "expand", "bogus"])
    #expect(unknown.code == 64 && unknown.stderr.contains("expenses"))
  }

  @Test func controlCharactersAreNeverEchoedRaw() throws {
    let cli = try CLI()
    let path = try cli.file("evil.csv", "Date,Description,Amount\n2026-10-01,\"Evil \u{1B}[31mRED\u{07} shop\",-1.00\n")
    #expect(try cli.run(["import", path]).code == 0)
    for arguments in [
      ["list"], ["report", "--month", "2026-10", "--expand", "expenses", "--details", "--color", "never"],
    ] {
      let result = try cli.run(arguments)
      #expect(result.code == 0)
      #expect(!result.stdout.contains("\u{1B}"), "\(arguments) printed a raw ESC")
      #expect(!result.stdout.contains("\u{07}"), "\(arguments) printed a raw BEL")
    }
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(rows.first?["description"] as? String == "Evil \u{1B}[31mRED\u{07} shop", "stored as it was")
  }

  @Test func budgetsAndReportsWorkTogether() throws {
    let cli = try CLI()
    try cli.run(["add", "2026-10-03", "168.40", "Dinner", "--category", "Dining out"])
    try cli.run(["add", "2026-10-04", "+10", "Refund", "--category", "Dining out"])
    #expect(try cli.run(["budget", "set", "Dining out", "150"]).code == 0)
    #expect(try cli.run(["budget", "set", "Dining out", "300", "--month", "2026-12"]).code == 0)
    let budgets = try #require(try cli.json(["budget", "list", "--format", "json"]) as? [[String: Any]])
    #expect(budgets.count == 2)
    let report = try #require(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"]) as? [String: Any])
    let groups = try #require(report["groups"] as? [[String: Any]])
    let dining = try #require((groups.first?["categories"] as? [[String: Any]])?.first)
    #expect(dining["spentMinor"] as? Int == 15840)
    #expect(dining["budgetMinor"] as? Int == 15000)
    #expect(dining["status"] as? String == "over")
    #expect(dining["percentUsed"] as? Double == 105.6)
    #expect(try cli.run(["budget", "remove", "Dining out", "--month", "2026-12"]).code == 0)
    #expect(try cli.run(["budget", "remove", "Dining out", "--month", "2026-12"]).code == 64)
  }

  @Test func helpAndVersion() throws {
    let cli = try CLI()
    let version = try cli.run(["--version"], useDatabase: false)
    #expect(version.code == 0 && version.stdout.contains("0.1.0"))
    for command in ["import", "add", "list", "report", "demo", "budget", "categories", "rules", "sections", "config"] {
      let help = try cli.run([command, "--help"], useDatabase: false)
      #expect(help.code == 0, "\(command) --help")
      #expect(help.stdout.contains("USAGE"), "\(command) --help")
    }
  }

  @Test func newerDatabaseIsRefused() throws {
    let cli = try CLI()
    try cli.run(["add", "2026-10-01", "1", "x"])
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version=99'); c.commit()", cli.db,
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    let result = try cli.run(["list"])
    #expect(result.code == 65)
    #expect(result.stderr.contains("newer version"))
  }
}

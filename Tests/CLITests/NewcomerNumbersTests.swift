import Foundation
import TestSupport
import Testing

/// What a newcomer sees after the quick start, through the built binary: an empty month
/// points to the data, an import says where its rows are, a typo in a category is caught,
/// projections on the demo never double count, and every listing fits every width.
@Suite struct NewcomerNumbersTests {
  /// A CLI whose database holds the demo's sample (July to October 20, 2026, with budgets).
  func demo() throws -> CLI {
    let cli = try CLI()
    let made = try cli.run(["demo", "--keep", cli.db, "--width", "80"], useDatabase: false)
    #expect(made.code == 0, "\(made.stderr)")
    return cli
  }

  func totals(_ json: Any) throws -> [String: Any] {
    let report = try #require(json as? [String: Any])
    let group = try #require((report["groups"] as? [[String: Any]])?.first)
    return try #require(group["totals"] as? [String: Any])
  }

  @Test func aMonthWithoutRowsPointsToTheLatestMonthWithData() throws {
    let cli = try demo()
    for width in [20, 21, 31, 32, 40, 59, 60, 80, 100, 200] {
      let result = try cli.run(["report", "--month", "2026-11", "--today", "2026-11-05", "--width", String(width)])
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout.contains("No expenses in"), "\(width): \(result.stdout)")
      #expect(!result.stdout.contains("Import a bank file"))
      let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(words.contains("expenses report --month 2026-10"), "\(width): \(result.stdout)")
      let check = try independentWidthCheck(result.stdout, width: width)
      #expect(check.ok, "\(width): \(check.message)")
    }
    let before = try cli.run(["report", "--month", "2025-01", "--today", "2026-11-05", "--width", "80"])
    #expect(before.stdout.contains("No data for January 2025: your data starts in July 2026."), "\(before.stdout)")
    let json = try #require(
      try cli.json(["report", "--month", "2026-11", "--today", "2026-11-05", "--format", "json"]) as? [String: Any])
    #expect(json["latestMonthWithData"] as? String == "2026-10")
    #expect(json["firstMonthWithData"] as? String == "2026-07")
    // The month of today stays the default: the pointer says where the data is.
    let plain = try cli.run(["report", "--today", "2026-11-05", "--width", "80"])
    #expect(plain.stdout.hasPrefix("November 2026"), "\(plain.stdout)")
  }

  @Test func anImportOfAnotherMonthSaysHowToSeeIt() throws {
    let cli = try CLI()
    let file = try cli.file("march.csv", "Date,Description,Amount\n2020-03-02,Bakery,-4.50\n2020-03-09,Bakery,-5.00\n")
    let result = try cli.run(["import", file, "--width", "80"])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.last == "See it: expenses report --month 2020-03", "\(result.stdout)")
    // Rows of this month need no pointer: `report` shows them.
    let today = try #require(Calendar.current.dateComponents([.year, .month, .day], from: Date()) as DateComponents?)
    let date = String(format: "%04d-%02d-%02d", today.year ?? 0, today.month ?? 0, today.day ?? 0)
    let now = try cli.file("now.csv", "Date,Description,Amount\n\(date),Coffee,-3.00\n")
    let current = try cli.run(["import", now])
    #expect(current.code == 0, "\(current.stderr)")
    #expect(!current.stdout.contains("See it:"), "\(current.stdout)")
  }

  @Test func setKindAndRulesAddAskDidYouMean() throws {
    let cli = try CLI()
    #expect(try cli.run(["budget", "set", "Groceries", "400"]).code == 0)
    // A kind for no category is refused (a typo would start a second category), naming the
    // close one and the flag that makes a new one.
    let kind = try cli.run(["categories", "set-kind", "Grocries", "expense"])
    #expect(kind.code == 64)
    #expect(kind.stderr.contains("did you mean 'Groceries'?"), "\(kind.stderr)")
    #expect(kind.stderr.contains("--create"), "\(kind.stderr)")
    let rule = try cli.run(["rules", "add", "whole foods", "Groceris"])
    #expect(rule.code == 0)
    #expect(rule.stderr.contains("did you mean 'Groceries'?"), "\(rule.stderr)")
    // A known name (any case) is no typo.
    let known = try cli.run(["rules", "add", "trader joe", "groceries"])
    #expect(!known.stderr.contains("did you mean"), "\(known.stderr)")
  }

  @Test func theDemoProjectionNeverDoubleCountsRowsAfterToday() throws {
    let cli = try demo()
    var projected: [String: Int64] = [:]
    var spent: Int64 = 0
    for day in ["01", "05", "10", "15", "20", "25", "31"] {
      let json = try cli.json(["report", "--month", "2026-10", "--today", "2026-10-\(day)", "--format", "json"])
      let totals = try totals(json)
      spent = try #require(totals["spentMinor"] as? Int64)
      projected[day] = try #require(totals["projectedMinor"] as? Int64)
    }
    // Every row of October is recorded (the sample ends on the 20th): whatever day is "today",
    // what is still to come is at most what comes after the 20th; a report dated earlier knows
    // no more than one dated the 20th, so it may not project more.
    let atLastRow = try #require(projected["20"])
    for (day, value) in projected {
      #expect(value >= spent, "day \(day)")
      #expect(value <= atLastRow, "day \(day): \(value) > \(atLastRow), spent \(spent)")
    }
    #expect(projected["31"] == spent)
  }

  @Test func everyListingFitsEveryWidth() throws {
    let cli = try demo()
    let name = "家計簿 checking export with a long name 2026.csv"
    let file = try cli.file(
      name, "Date,Description,Amount,Category\n2026-09-30,Café de Flore — terrasse,-12.40,Dining out\n")
    #expect(try cli.run(["import", file, "--save-profile", "my-bank-profile-with-a-long-name"]).code == 0)
    #expect(try cli.run(["token", "create", "phone-of-a-person-with-a-long-name", "--scope", "read"]).code == 0)
    #expect(try cli.run(["rules", "add", "whole foods market", "Groceries"]).code == 0)
    let commands: [[String]] = [
      ["imports"], ["token", "list"], ["categories"], ["config"], ["check"], ["budget", "list"], ["rules", "list"],
      ["sections"], ["import", file, "--dry-run"], ["list", "--month", "2026-09"],
      ["report", "--month", "2026-10", "--today", "2026-10-20"],
    ]
    for command in commands {
      for width in [20, 21, 31, 32, 40, 59, 60, 80, 200] {
        let result = try cli.run(command + ["--width", String(width)])
        #expect(result.code == 0, "\(command) \(width): \(result.stderr)")
        #expect(!result.stdout.isEmpty, "\(command) \(width)")
        let check = try independentWidthCheck(result.stdout + result.stderr, width: width)
        #expect(check.ok, "\(command) at \(width): \(check.message)\n\(result.stdout)")
      }
    }
    // Wrapped, not cut: the file name is whole in the listing at 20 columns.
    let narrow = try cli.run(["imports", "--width", "20"])
    #expect(
      narrow.stdout.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
        .contains(name.replacingOccurrences(of: " ", with: "")), "\(narrow.stdout)")
  }
}

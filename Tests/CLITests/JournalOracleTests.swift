import Foundation
import Testing

/// The exported journals read by the real tools: hledger's per-category monthly totals equal
/// the report's JSON to the minor unit, and bean-check accepts the beancount file.
@Suite struct JournalOracleTests {
  /// A database with awkward names: a colon, an ampersand, CJK, emoji only, two names that spell
  /// alike in beancount, a transfer, unsorted money in and a JPY and a BHD row.
  let awkward = """
    Date,Description,Amount,Currency,Category,Account
    2026-09-03,Rice,-1200,JPY,東京 食費,Wallet
    2026-09-04,Pizza,-12.50,USD,🍕,Checking
    2026-10-01,Shop,-10.25,USD,Food: Groceries,Checking
    2026-10-02,Shop,-3.10,USD,dining-out,Checking
    2026-10-02,Cafe,-4.40,USD,Dining out,Checking
    2026-10-03,Refund,2.00,USD,Dining out,Checking
    2026-10-04,Card payment,-300.00,USD,Transfers,Checking
    2026-10-05,Mystery deposit,75.00,USD,,Checking
    2026-10-06,Mystery charge,-7.00,USD,,Checking
    2026-10-07,Tea & cake,-1.250,BHD,Café & Bar,Manama
    2026-10-08,Salary,2500.00,USD,Salary,Checking
    """

  /// Datasets: the demo, an import fixture (several accounts, a refund-like inflow), the
  /// awkward names; each with the months to compare.
  func datasets() throws -> [(name: String, cli: CLI, months: [String])] {
    let demo = try CLI()
    let kept = try demo.run(["demo", "--keep", demo.db], useDatabase: false)
    #expect(kept.code == 0, "\(kept.stderr)")
    let fixture = try CLI()
    #expect(try fixture.run(["import", CLI.fixture("import/us_mint.csv")]).code == 0)
    #expect(try fixture.run(["categories", "set-kind", "Paycheck", "income"]).code == 0)
    #expect(try fixture.run(["budget", "set", "Groceries", "100"]).code == 0)
    let odd = try CLI()
    let imported = try odd.run(["import", try odd.file("odd.csv", awkward)])
    #expect(imported.code == 0, "\(imported.stderr)")
    #expect(try odd.run(["categories", "set-kind", "Salary", "income"]).code == 0)
    #expect(try odd.run(["budget", "set", "Dining out", "20"]).code == 0)
    #expect(try odd.run(["budget", "set", "Dining out", "35", "--month", "2026-10"]).code == 0)
    return [
      ("demo", demo, ["2026-07", "2026-08", "2026-09", "2026-10"]), ("us_mint", fixture, ["2026-09", "2026-10"]),
      ("awkward", odd, ["2026-09", "2026-10"]),
    ]
  }

  @Test func hledgerTotalsEqualTheReport() throws {
    guard let hledger = ExternalTool.require("hledger", install: "apt-get install hledger") else { return }
    for (name, cli, months) in try datasets() {
      let journal = cli.directory.appendingPathComponent("\(name).journal").path
      let export = try cli.run(["export", "--format", "ledger", "-o", journal])
      #expect(export.code == 0, "\(export.stderr)")
      let text = try String(contentsOfFile: journal, encoding: .utf8)
      // Which account holds which category: the journal's own `account` directives say it.
      var accountOf: [String: String] = [:]
      for line in text.split(separator: "\n") where line.hasPrefix("account ") {
        let parts = line.dropFirst(8).components(separatedBy: "  ; ")
        if parts.count == 2 { accountOf[parts[1]] = parts[0] }
      }
      for month in months {
        let report = try #require(
          try cli.json(["report", "--month", month, "--today", "2026-10-20", "--format", "json"]) as? [String: Any])
        let result = try ExternalTool.run(hledger, ["-f", journal, "balance", "--flat", "-p", month, "-O", "json"])
        #expect(result.code == 0, "\(name) \(month): hledger: \(result.stderr)")
        let balances = try hledgerBalances(result.stdout)
        var expected: [String: Int] = [:]  // "account|currency" → minor units
        var transfers: [String: Int] = [:]
        for group in report["groups"] as? [[String: Any]] ?? [] {
          let currency = group["currency"] as! String
          for row in group["categories"] as? [[String: Any]] ?? [] {
            let account = try #require(
              accountOf["name: " + (row["category"] as! String)], "\(name): no account for \(row["category"]!)")
            expected[account + "|" + currency] = row["spentMinor"] as? Int
          }
          for line in group["income"] as? [[String: Any]] ?? [] {
            let account = try #require(accountOf["name: " + (line["category"] as! String)])
            expected[account + "|" + currency] = -(line["amountMinor"] as! Int)
          }
          if let unsorted = group["unsortedInMinor"] as? Int, unsorted != 0 {
            expected[accountOf["unsorted money in"]! + "|" + currency] = -unsorted
          }
          transfers[currency] = group["transfersMinor"] as? Int
        }
        // Every expense and income account hledger reports is in the report, with its amount.
        for (key, minor) in balances where key.hasPrefix("expenses:") || key.hasPrefix("income:") {
          #expect(expected[key] == minor, "\(name) \(month): hledger \(key) = \(minor), report \(expected[key] ?? 0)")
        }
        for (key, minor) in expected where minor != 0 {
          #expect(balances[key] == minor, "\(name) \(month): report \(key) = \(minor), hledger \(balances[key] ?? 0)")
        }
        for (currency, minor) in transfers {
          let held = balances.filter { $0.key.hasPrefix("assets:Transfers:") && $0.key.hasSuffix("|" + currency) }
          #expect(held.values.reduce(0, +) == minor, "\(name) \(month): transfers in \(currency)")
        }
      }
    }
  }

  /// `hledger balance -O json`: account|commodity → exact minor units (mantissa scaled to the
  /// currency's digits, which are the journal's).
  func hledgerBalances(_ json: String) throws -> [String: Int] {
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
    let rows = try #require(root.first as? [[Any]])
    let digits = ["USD": 2, "JPY": 0, "BHD": 3, "EUR": 2, "GBP": 2]
    var out: [String: Int] = [:]
    for row in rows {
      let account = row[0] as! String
      for amount in row[3] as! [[String: Any]] {
        let commodity = amount["acommodity"] as! String
        let quantity = amount["aquantity"] as! [String: Any]
        var mantissa = (quantity["decimalMantissa"] as! NSNumber).intValue
        var places = quantity["decimalPlaces"] as! Int
        let want = try #require(digits[commodity], "unexpected commodity \(commodity)")
        while places < want {
          mantissa *= 10
          places += 1
        }
        #expect(places == want, "\(account) \(commodity) has \(places) decimals")
        out[account + "|" + commodity] = mantissa
      }
    }
    return out
  }

  /// hledger's budget of each category per month (`balance --budget`) equals the report's
  /// budget in force: defaults, a month's override and a budget move folded in.
  @Test func hledgerBudgetsEqualTheReportsWithMoves() throws {
    guard let hledger = ExternalTool.require("hledger", install: "apt-get install hledger") else { return }
    let cli = try CLI()
    let csv =
      "Date,Description,Amount,Category\n2026-10-02,Cafe,-40.00,Dining out\n2026-10-03,Market,-420.00,Groceries\n"
    #expect(try cli.run(["import", try cli.file("oct.csv", csv)]).code == 0)
    for arguments in [
      ["budget", "set", "Groceries", "400"], ["budget", "set", "Dining out", "100"],
      ["budget", "set", "Dining out", "150", "--month", "2026-10"],
      ["budget", "move", "50", "Dining out", "Groceries", "--month", "2026-10"],
      ["budget", "move", "25", "Groceries", "Dining out", "--month", "2026-11"],
    ] {
      let run = try cli.run(arguments)
      #expect(run.code == 0, "\(arguments): \(run.stderr)")
    }
    let journal = cli.directory.appendingPathComponent("moves.journal").path
    #expect(try cli.run(["export", "--format", "ledger", "-o", journal]).code == 0)
    let text = try String(contentsOfFile: journal, encoding: .utf8)
    var accountOf: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("account ") {
      let parts = line.dropFirst(8).components(separatedBy: "  ; ")
      if parts.count == 2 { accountOf[parts[1]] = parts[0] }
    }
    for month in ["2026-09", "2026-10", "2026-11"] {
      let report = try #require(
        try cli.json(["report", "--month", month, "--today", "2026-10-20", "--format", "json"]) as? [String: Any])
      let result = try ExternalTool.run(
        hledger, ["-f", journal, "balance", "--budget", "--flat", "-p", month, "-O", "csv"])
      #expect(result.code == 0, "\(month): hledger: \(result.stderr)")
      // "account","actual","budget": a budget cell is "450.00 USD".
      var budgets: [String: Int] = [:]
      for line in result.stdout.split(separator: "\n").dropFirst() {
        let cells = line.trimmingCharacters(in: CharacterSet(charactersIn: "\"\r")).components(separatedBy: "\",\"")
        guard cells.count == 3, let number = Double(cells[2].split(separator: " ").first ?? "") else { continue }
        budgets[cells[0]] = Int((number * 100).rounded())
      }
      var compared = 0
      for group in report["groups"] as? [[String: Any]] ?? [] {
        for row in group["categories"] as? [[String: Any]] ?? [] {
          guard let budget = row["budgetMinor"] as? Int, let category = row["category"] as? String else { continue }
          let account = try #require(accountOf["name: " + category], "no account for \(category)")
          #expect(
            budgets[account] == budget, "\(month) \(category): hledger \(budgets[account] ?? -1), report \(budget)")
          compared += 1
        }
      }
      #expect(compared == 2, "\(month): both categories have a budget")
    }
  }

  @Test func beanCheckAcceptsTheBeancountExport() throws {
    guard let beanCheck = ExternalTool.require("bean-check", install: "pip install beancount") else { return }
    for (name, cli, _) in try datasets() {
      let file = cli.directory.appendingPathComponent("\(name).beancount").path
      let export = try cli.run(["export", "--format", "beancount", "-o", file])
      #expect(export.code == 0, "\(export.stderr)")
      let result = try ExternalTool.run(beanCheck, [file])
      #expect(result.code == 0 && result.stderr.isEmpty, "\(name): bean-check: \(result.stdout)\(result.stderr)")
      let text = try String(contentsOfFile: file, encoding: .utf8)
      #expect(text.contains("custom \"budget\""), "\(name): budgets")
    }
  }

  @Test func exportWritesAMonthAndKeepsFilesSafe() throws {
    let cli = try CLI()
    #expect(try cli.run(["demo", "--keep", cli.db], useDatabase: false).code == 0)
    let october = try cli.run(["export", "--format", "ledger", "--month", "2026-10"])
    #expect(october.code == 0)
    #expect(october.stdout.contains("2026-10-01") && !october.stdout.contains("\n2026-09-"))
    let range = try cli.run(["export", "--format", "beancount", "--from", "2026-09-15", "--to", "2026-09-16"])
    #expect(range.stdout.contains("2026-09-15 *") && !range.stdout.contains("2026-09-17 *"))
    #expect(try cli.run(["export", "--format", "ledger", "--month", "2026-10", "--from", "2026-01-01"]).code == 64)
    let path = try cli.file("existing.journal", "keep me")
    let refused = try cli.run(["export", "--format", "ledger", "-o", path])
    #expect(refused.code == 73 && refused.stderr.contains("--force"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    #expect(try cli.run(["export", "--format", "ledger", "-o", cli.db]).code == 73, "never the database")
    #expect(try cli.run(["export", "--format", "ledger", "-o", path, "--force"]).code == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("expenses:Dining out"))
  }
}

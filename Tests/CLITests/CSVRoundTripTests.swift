import Foundation
import Testing

/// `list --format csv` and `report --format csv` read back by an independent reader (Python's
/// csv module): one header, every field of the JSON contract, formula-like text defused while
/// number columns stay numbers.
@Suite struct CSVRoundTripTests {
  let tricky = """
    Date,Description,Amount,Category,Account
    2026-10-01,"=HYPERLINK(""http://x"",""y"")",-54.20,Groceries,Checking
    2026-10-02,"Thai ""Basil"" House, SF",-23.10,Dining out,"+Visa, card"
    2026-10-03,"Multi
    line memo",-5.00,,@savings
    2026-10-04,-minus first,12.00,Refunds,
    2026-10-05,Salary,2500.00,Salary,
    2026-10-06,"	tab first",-1.00,@Sum,Checking
    """

  /// Python's reading of `csv`, as rows of strings.
  func read(_ csv: String) throws -> [[String]]? {
    guard let python = ExternalTool.require("python3", install: "apt-get install python3") else { return nil }
    let reader = CLI.root.appendingPathComponent("Tests/Tools/csv-to-json.py").path
    let result = try ExternalTool.run(python, [reader], input: csv)
    #expect(result.code == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String]]
  }

  @Test func listCSVCarriesTheJSONContract() throws {
    let cli = try CLI()
    let imported = try cli.run(["import", try cli.file("bank.csv", tricky)])
    #expect(imported.code == 0, "\(imported.stderr)")
    let json = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    let csv = try cli.run(["list", "--format", "csv"])
    #expect(csv.code == 0)
    #expect(csv.stdout.hasSuffix("\r\n") && !csv.stdout.hasSuffix("\r\n\n"), "one CRLF after the last record")
    let rows = try #require(try read(csv.stdout))
    #expect(
      rows.first == [
        "id", "date", "amount_minor", "amount", "currency", "description", "category", "account", "source_file",
        "source_line",
      ])
    #expect(rows.count == json.count + 1, "one header, one row per expense")
    #expect(rows.allSatisfy { $0.count == 10 })
    for (row, object) in zip(rows.dropFirst(), json) {
      #expect(row[0] == "\(object["id"] as! Int)")
      #expect(row[1] == object["date"] as? String)
      #expect(Int(row[2]) == object["amountMinor"] as? Int, "amount_minor is a plain integer")
      #expect(row[4] == object["currency"] as? String)
      // Text columns: what the JSON says, with a leading ' when it starts like a formula (the
      // multi-line memo is one line: a cell is shown with `cat`, its newline a space).
      for (index, key) in [(5, "description"), (6, "category"), (7, "account")] {
        let value = (object[key] as? String) ?? ""
        let flat = value.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
        let formula = value.first.map { "=+-@\t\r".contains($0) } ?? false
        #expect(row[index] == (formula ? "'" + flat : flat), "\(key) of \(row)")
      }
      let source = object["source"] as? [String: Any]
      #expect(row[8] == source?["file"] as? String)
      #expect(row[9] == "\(source?["line"] as? Int ?? -1)")
    }
    // Defused: no text cell starts with a formula character; numbers stay numbers.
    for row in rows.dropFirst() {
      for index in [5, 6, 7, 8] { #expect(!(row[index].first.map { "=+-@\t\r".contains($0) } ?? false), "\(row)") }
    }
    let groceries = try #require(rows.first { $0[6] == "Groceries" })
    #expect(groceries[2] == "-5420" && groceries[3] == "-54.20", "a negative amount is a number, not defused")
    #expect(rows.contains { $0[5] == "'=HYPERLINK(\"http://x\",\"y\")" })
    #expect(rows.contains { $0[7] == "'+Visa, card" })
    #expect(rows.contains { $0[5] == "'-minus first" })
  }

  @Test func reportCSVHasEveryRecordUnderOneHeader() throws {
    let cli = try CLI()
    #expect(try cli.run(["import", try cli.file("bank.csv", tricky)]).code == 0)
    #expect(try cli.run(["categories", "set-kind", "Salary", "income"]).code == 0)
    #expect(try cli.run(["budget", "set", "Groceries", "50"]).code == 0)
    let args = ["report", "--month", "2026-10", "--today", "2026-10-20"]
    let report = try #require(try cli.json(args + ["--format", "json"]) as? [String: Any])
    let csv = try cli.run(args + ["--format", "csv"])
    #expect(csv.code == 0)
    #expect(csv.stdout.hasSuffix("\r\n") && !csv.stdout.hasSuffix("\r\n\n"), "one CRLF after the last record")
    let rows = try #require(try read(csv.stdout))
    let header = try #require(rows.first)
    #expect(rows.filter { $0 == header }.count == 1, "one header")
    #expect(rows.allSatisfy { $0.count == header.count }, "every record has every column")
    func column(_ name: String) -> Int { header.firstIndex(of: name)! }
    let records = rows.dropFirst().map { $0[column("record")] }
    let expenses = rows.filter { $0[column("record")] == "expense" }
    #expect(expenses.count == report["expenseCount"] as? Int, "the expenses, collapsed or not")
    #expect(records.contains("trend") && records.contains("report") && records.contains("income"))
    #expect(records.filter { $0 == "section" }.count == (report["sections"] as? [Any])?.count, "a record per section")
    let group = try #require((report["groups"] as? [[String: Any]])?.first)
    for category in try #require(group["categories"] as? [[String: Any]]) {
      let name = category["category"] as! String
      let row = try #require(
        rows.first { $0[column("record")] == "category" && $0[column("category")].hasSuffix(name) })
      let spent = category["spentMinor"] as! Int
      #expect(
        row[column("spent")] == String(format: "%@%d.%02d", spent < 0 ? "-" : "", abs(spent) / 100, abs(spent) % 100))
    }
    let total = try #require(rows.first { $0[column("record")] == "total" })
    #expect(total[column("over_count")] == "1", "Groceries 54.20 of 50.00")
    #expect(total[column("remaining")].hasPrefix("-"), "a negative remaining stays a number")
    let income = try #require(rows.first { $0[column("record")] == "income" })
    #expect(income[column("amount")] == "2500.00")
    let at = try #require(rows.first { $0[column("record")] == "category" && $0[column("category")].contains("Sum") })
    #expect(at[column("category")] == "'@Sum")
  }
}

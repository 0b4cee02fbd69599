import Foundation
import Testing

@Suite struct ImportFeatureTests {
  let bank = """
    Date,Description,Amount
    2026-10-01,WHOLE FOODS #123,-54.20
    2026-10-02,AMZN Mktp US*2K4,-23.10
    2026-10-02,AMZN Mktp US*2K4,-23.10
    2026-10-03,Bus,-2.50
    """

  @Test func rulesCategorizeAtImportAndDryRunShowsThem() throws {
    let cli = try CLI()
    #expect(try cli.run(["rules", "add", "whole foods", "Groceries"]).code == 0)
    #expect(try cli.run(["rules", "add", "amzn*mktp", "Shopping"]).code == 0)
    let path = try cli.file("bank.csv", bank)
    let dry = try cli.run(["import", path, "--dry-run"])
    #expect(dry.code == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("line 2:") && dry.stdout.contains("Groceries (rule 1)"))
    #expect(dry.stdout.contains("Shopping (rule 2)"))
    #expect(dry.stdout.contains("Would import"))
    #expect(try cli.run(["list", "--format", "json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")

    let real = try cli.run(["import", path])
    #expect(real.stdout.contains("4 new"), "two identical purchases on one day are both kept: \(real.stdout)")
    #expect(real.stderr.isEmpty, "no progress bar when stderr is not a terminal")
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(rows.filter { $0["category"] as? String == "Shopping" }.count == 2)
    #expect(rows.contains { $0["description"] as? String == "Bus" && $0["category"] is NSNull })

    #expect(try cli.run(["rules", "add", "bus", "Transport"]).code == 0)
    let apply = try cli.run(["rules", "apply"])
    #expect(apply.stdout.contains("Re-categorized 1 expense"))
    let categories = try cli.run(["categories"])
    let listed = categories.stdout.split(separator: "\n")
    #expect(listed.contains { $0.hasPrefix("Transport ") && $0.hasSuffix(" 1") }, "\(categories.stdout)")
  }

  @Test func overlappingExportAddsOnlyTheNewRows() throws {
    let cli = try CLI()
    let september = try cli.file(
      "sep.csv", "Date,Description,Amount\n2026-09-28,Rent,-1000.00\n2026-09-30,Coffee,-4.00\n2026-10-01,Coffee,-4.00\n"
    )
    let october = try cli.file(
      "oct.csv", "Date,Description,Amount\n2026-09-30,Coffee,-4.00\n2026-10-01,Coffee,-4.00\n2026-10-02,Lunch,-12.00\n")
    #expect(try cli.run(["import", september]).stdout.contains("3 new"))
    let second = try cli.run(["import", october, "--width", "200"])
    #expect(second.stdout.contains("1 new, 2 duplicates"), "\(second.stdout)")
    #expect(second.stdout.contains("already imported from sep.csv:3"))
  }

  @Test func savedProfileRepeatsTheFlags() throws {
    let cli = try CLI()
    let german = try cli.file("de.csv", "Datum;Text;Betrag\n03.10.2026;Edeka;-12,50\n04.10.2026;Miete;-800,00\n")
    let first = try cli.run(["import", german, "--currency", "EUR", "--account", "Giro", "--save-profile", "sparkasse"])
    #expect(first.code == 0, "\(first.stderr)")
    let next = try cli.file("de2.csv", "Datum;Text;Betrag\n05.10.2026;Bäcker;-3,20\n")
    #expect(try cli.run(["import", next, "--profile", "sparkasse"]).code == 0)
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    let baker = try #require(rows.first { $0["description"] as? String == "Bäcker" })
    #expect(baker["currency"] as? String == "EUR")
    #expect(baker["account"] as? String == "Giro")
    #expect(baker["amountMinor"] as? Int == -320)
    let missing = try cli.run(["import", next, "--profile", "nope"])
    #expect(missing.code == 64 && missing.stderr.contains("nope"))
  }

  @Test func creditCardWithPositiveChargesStopsAndNamesTheFlag() throws {
    let cli = try CLI()
    let card = try cli.file(
      "card.csv",
      "Date,Description,Amount\n2026-10-01,Shop A,12.00\n2026-10-02,Shop B,30.00\n2026-10-03,Shop C,8.00\n2026-10-04,Payment,-50.00\n"
    )
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    let before = try cli.databaseBytes()
    let result = try cli.run(["import", card])
    #expect(result.code == 65, "stops before writing: \(result.stderr)")
    #expect(result.stderr.contains("--spending positive"), "\(result.stderr)")
    #expect(try cli.databaseBytes() == before, "nothing written")
    let flipped = try cli.run(["import", card, "--spending", "positive"])
    #expect(flipped.code == 0)
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(rows.first { $0["description"] as? String == "Shop B" }?["amountMinor"] as? Int == -3000)
  }

  @Test func embeddedDemoDataMatchesTheFixture() throws {
    // The binary embeds Fixtures/demo/bank.csv; a `demo --keep` database holds exactly its rows.
    let cli = try CLI()
    let keep = cli.directory.appendingPathComponent("demo.sqlite").path
    #expect(try cli.run(["demo", "--keep", keep, "--width", "80"], useDatabase: false).code == 0)
    let rows = try #require(
      try JSONSerialization.jsonObject(
        with: Data(try cli.run(["list", "--format", "json", "--db", keep], useDatabase: false).stdout.utf8))
        as? [[String: Any]])
    let fixture = try String(contentsOfFile: CLI.fixture("demo/bank.csv"), encoding: .utf8)
    let fixtureRows = fixture.split(separator: "\n").count - 1
    #expect(rows.count == fixtureRows)
  }
}

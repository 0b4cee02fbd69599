import Foundation
import Testing

/// Tags through the built binary: tagged by hand and by a rule, `list --tag`, the report's
/// section, and the journals, whose tags hledger and beancount read back (independent oracles);
/// every new output within the width (the independent width checker) from 20 to 200 columns.
@Suite struct TagCLITests {
  func ledger() throws -> CLI {
    let cli = try CLI()
    let csv = """
      Date,Description,Amount
      2026-08-03,HOTEL AVENIDA LISBOA,-600.00
      2026-08-04,CAFE A BRASILEIRA LISBOA,-12.50
      2026-08-10,GROCER,-55.00
      2026-07-28,FLIGHT TAP LISBON 1234,-420.00

      """
    #expect(try cli.run(["import", try cli.file("aug.csv", csv)]).code == 0)
    #expect(try cli.run(["rules", "add", "lisboa", "Travel", "--tag", "trip-lisbon"]).code == 0)
    let flight = try cli.run(["list", "--search", "flight", "--format", "json"])
    let id =
      (try JSONSerialization.jsonObject(with: Data(flight.stdout.utf8)) as? [[String: Any]])?.first?["id"] as? Int
    #expect(try cli.run(["tag", "add", "trip-lisbon", String(id ?? 0)]).code == 0)
    #expect(
      try cli.run(["tag", "budget", "trip-lisbon", "1500", "--from", "2026-07-25", "--to", "2026-08-31"]).code == 0)
    return cli
  }

  @Test func aTripIsTaggedListedReportedAndExported() throws {
    let cli = try ledger()
    let listed = try cli.run(["tag", "--width", "200"])
    #expect(
      listed.stdout
        == "trip-lisbon: 3 rows · $1,032.50 · $1,032.50 of $1,500.00 (69%) 2026-07-25 to 2026-08-31 · rules #1\n",
      "\(listed.stdout)")
    let rows = try cli.run(["list", "--tag", "trip-lisbon", "--width", "80"])
    #expect(rows.stdout.contains("3 rows · -$1,032.50") && !rows.stdout.contains("GROCER"), "\(rows.stdout)")
    let report = try cli.run(["report", "--month", "2026-08", "--today", "2026-08-20", "--width", "80"])
    #expect(report.stdout.contains("▶ Tags (1 · trip-lisbon 69%)"), "\(report.stdout)")

    guard let hledger = ExternalTool.require("hledger", install: "apt-get install hledger") else { return }
    let journal = cli.directory.appendingPathComponent("all.journal").path
    #expect(try cli.run(["export", "--format", "ledger", "-o", journal]).code == 0)
    let tagged = try ExternalTool.run(hledger, ["-f", journal, "register", "tag:trip-lisbon", "-O", "csv"])
    #expect(tagged.code == 0, "\(tagged.stderr)")
    // Two postings a transaction: three tagged rows.
    #expect(tagged.stdout.split(separator: "\n").count == 1 + 6, "\(tagged.stdout)")

    guard ExternalTool.require("bean-check", install: "pip install beancount") != nil,
      let python = ExternalTool.require("python3", install: "apt-get install python3")
    else { return }
    let beancount = cli.directory.appendingPathComponent("all.beancount").path
    #expect(try cli.run(["export", "--format", "beancount", "-o", beancount]).code == 0)
    let read = try ExternalTool.run(
      python,
      [
        "-c",
        "import sys\nfrom beancount import loader\nentries, errors, _ = loader.load_file(sys.argv[1])\n"
          + "print(len(errors), sorted(e.narration for e in entries if 'trip-lisbon' in (getattr(e, 'tags', None) or ())))",
        beancount,
      ])
    #expect(
      read.stdout == "0 ['CAFE A BRASILEIRA LISBOA', 'FLIGHT TAP LISBON 1234', 'HOTEL AVENIDA LISBOA']\n",
      "\(read.stdout)\(read.stderr)")
  }

  @Test func everyNewOutputFitsEveryWidth() throws {
    let cli = try ledger()
    for width in 20...200 {
      for arguments in [
        ["tag", "list"], ["report", "--month", "2026-08", "--today", "2026-08-20", "--expand", "tags"],
      ] {
        let shown = try cli.run(arguments + ["--width", String(width)])
        #expect(shown.code == 0, "\(arguments) \(width): \(shown.stderr)")
        let check = try independentWidthCheck(shown.stdout, width: width)
        #expect(check.ok, "\(arguments) at \(width): \(check.message)")
      }
    }
  }
}

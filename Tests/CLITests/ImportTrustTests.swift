import Foundation
import Testing

/// Files that used to import silently wrong (issue 12's trust cases) at the level a user sees.
@Suite struct ImportTrustTests {
  func rows(_ cli: CLI) throws -> [[String: Any]] {
    try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
  }

  @Test func twoColumnsOfOneNameAreRefusedAtTheHeader() throws {
    let cli = try CLI()
    let file = try cli.file("dup.csv", "Date,Amount,Description,Amount\n2026-10-01,1.00,x,2.00\n")
    let before = try cli.run(["add", "2026-01-01", "1", "existing"])
    #expect(before.code == 0)
    let bytes = try cli.databaseBytes()
    let result = try cli.run(["import", file])
    #expect(result.code == 65)
    #expect(
      result.stderr.contains("line 1") && result.stderr.contains("\"Amount\" (columns 2 and 4)"), "\(result.stderr)")
    #expect(result.stderr.contains("--columns"))
    #expect(try cli.databaseBytes() == bytes)
    // Saying which column is which settles it.
    let given = try cli.run(["import", file, "--columns", "date,amount,description,-"])
    #expect(given.code == 0, "\(given.stderr)")
    #expect(try rows(cli).contains { $0["amountMinor"] as? Int == 100 })
  }

  @Test func aNetColumnIsNotChargedTheFeeAgain() throws {
    let cli = try CLI()
    let file = try cli.file(
      "paypal.csv",
      "Date,Name,Gross,Fee,Net\n2026-10-01,Shop,-10.00,-0.50,-10.50\n2026-10-02,Sale,20.00,-0.88,19.12\n")
    #expect(try cli.run(["import", file, "--column", "Net=amount"]).code == 0)
    let amounts = try rows(cli).compactMap { $0["amountMinor"] as? Int }.sorted()
    #expect(amounts == [-1050, 1912], "Net as it stands, the fee not taken twice")
    // Gross with Fee gives the same numbers.
    let other = try CLI()
    #expect(try other.run(["import", file]).code == 0)
    #expect(try rows(other).compactMap { $0["amountMinor"] as? Int }.sorted() == [-1050, 1912])
  }

  @Test func theCurrencyAFileStatesWinsAndAContradictionStops() throws {
    let cli = try CLI()
    let file = try cli.file("eur.csv", "Datum;Omschrijving;Bedrag (EUR)\n13-10-2026;Winkel;-23,45\n")
    let contradicted = try cli.run(["import", file, "--currency", "USD"])
    #expect(contradicted.code == 65)
    #expect(contradicted.stderr.contains("EUR") && contradicted.stderr.contains("--currency"))
    let result = try cli.run(["import", file, "--format", "json"])
    #expect(result.code == 0)
    #expect(result.stdout.contains("from the header"), "the summary says where the currency came from")
    #expect(try rows(cli).first?["currency"] as? String == "EUR")
  }

  @Test func windows1252IsChosenOnlyWithoutUTF8AndTheWarningNamesTheLine() throws {
    let cli = try CLI()
    let path = cli.directory.appendingPathComponent("cp1252.csv").path
    var bytes = Array("Date,Description,Amount\n2026-10-01,Bakery,-1.00\n2026-10-02,M".utf8)
    bytes += [0xFC] + Array("ller,-2.00\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = try cli.run(["import", path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("line 3") && result.stdout.contains("Windows-1252"), "\(result.stdout)")
    #expect(try rows(cli).contains { $0["description"] as? String == "Müller" })
  }
}

@Suite struct ImportExclusionTests {
  @Test func anImportWhereEveryRowIsExcludedStopsAndSaysWhy() throws {
    let cli = try CLI()
    let file = try cli.file(
      "pending.csv", "Date,Description,Amount,Status\n2026-10-01,a,-1.00,Pending\n2026-10-02,b,-2.00,declined\n")
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    let before = try cli.databaseBytes()
    let result = try cli.run(["import", file])
    #expect(result.code == 65)
    #expect(result.stderr.contains("every row was excluded") && result.stderr.contains("line 2: status Pending"))
    #expect(try cli.databaseBytes() == before)
  }
}

@Suite struct TwoDigitYearTests {
  func firstDate(_ csv: String) throws -> (code: Int32, date: String?, stderr: String) {
    let cli = try CLI()
    let result = try cli.run(["import", try cli.file("f.csv", csv)])
    let rows = result.code == 0 ? try cli.json(["list", "--format", "json"]) as? [[String: Any]] : nil
    return (result.code, rows?.last?["date"] as? String, result.stderr)
  }

  @Test func theEndThatBehavesLikeAYearIsTheYear() throws {
    let dayFirst = try firstDate("Buchungstag;Text;Betrag\n01.10.26;a;-1,00\n05.10.26;b;-2,00\n11.10.26;c;-3,00\n")
    #expect(dayFirst.date == "2026-10-01", "\(dayFirst.stderr)")
    let yearFirst = try firstDate("Datum;Text;Bedrag\n26.10.01;a;-1,00\n26.10.05;b;-2,00\n26.11.11;c;-3,00\n")
    #expect(yearFirst.date == "2026-10-01", "\(yearFirst.stderr)")
    // Both ends constant: truly ambiguous, and the error names the flag.
    let ambiguous = try firstDate("Date,Text,Amount\n10/01/26,a,-1.00\n10/05/26,b,-2.00\n10/07/26,c,-2.00\n")
    #expect(ambiguous.code == 65)
    #expect(ambiguous.stderr.contains("--date-format"))
  }
}

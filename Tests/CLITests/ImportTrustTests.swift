import Foundation
import Testing

/// Files that used to import silently wrong (the import's trust cases) at the level a user sees.
@Suite struct ImportTrustTests {
  func rows(_ cli: CLI) throws -> [[String: Any]] {
    try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
  }

  @Test func twoColumnsOfOneNameAreRefusedAtTheHeader() throws {
    let cli = try CLI()
    let file = try cli.file("dup.csv", "Date,Amount,Description,Amount\n2026-10-01,-1.00,x,-2.00\n")
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
    #expect(try rows(cli).contains { $0["amountMinor"] as? Int == -100 })
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
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(summary["currency"] as? String == "EUR")
    #expect((summary["currencyReason"] as? String)?.contains("the header") == true, "says why")
    #expect(summary["importId"] as? Int == 1, "the import's id, for imports remove")
    let text = try cli.run([
      "import", try cli.file("eur2.csv", "Datum;Omschrijving;Bedrag (EUR)\n14-10-2026;Ander;-1,00\n"),
    ])
    #expect(text.stdout.contains("Currency: EUR (the header \"Bedrag (EUR)\")"), "\(text.stdout)")
    #expect(try rows(cli).first?["currency"] as? String == "EUR")
  }

  @Test func windows1252IsChosenOnlyWithoutUTF8AndTheWarningNamesTheLine() throws {
    let cli = try CLI()
    let path = cli.directory.appendingPathComponent("cp1252.csv").path
    var bytes = Array("Date,Description,Amount\n2026-10-01,Bakery,-1.00\n2026-10-02,M".utf8)
    bytes += [0xFC] + Array("ller,-2.00\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = try cli.run(["import", path, "--width", "200"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains("warning: line 3 is not UTF-8: the file is read as windows-1252, uchardet said "),
      "warnings on stderr: \(result.stderr)"
    )
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

@Suite struct StandardInputTests {
  @Test func dashReadsStandardInput() throws {
    let cli = try CLI()
    let csv = try cli.file("bank.csv", "Date,Description,Amount\n2026-10-13,Coffee,-4.50\n2026-10-14,Tea,-3.00\n")
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = ["import", "-", "--db", cli.db, "--format", "json"]
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: csv))
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(summary["new"] as? Int == 2)
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(Set(rows.compactMap { $0["description"] as? String }) == ["Coffee", "Tea"])
  }
}

@Suite struct PreviewTests {
  @Test func previewWritesNothingAndShowsSettingsColumnsAndRows() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    #expect(try cli.run(["rules", "add", "heijn", "Groceries"]).code == 0)
    let before = try cli.databaseBytes()
    let file = CLI.fixture("import/dutch_bedrag_eur.csv")
    let text = try cli.run(["import", file, "--preview", "--width", "60", "--limit", "2"])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stdout.contains("EUR (the header \"Bedrag (EUR)\")"))
    #expect(text.stdout.contains("First 2 of 3 rows"))
    #expect(text.stdout.contains("Groceries (rule"))
    for line in text.stdout.split(separator: "\n") { #expect(line.count <= 60) }
    let json = try cli.json(["import", file, "--preview", "--format", "json", "--limit", "1"]) as? [String: Any]
    let shown = try #require(json?["rows"] as? [[String: Any]])
    #expect(shown.count == 1 && shown.first?["rule"] as? String == "heijn")
    #expect(json?["newRows"] as? Int == 3)
    let columns = try #require(json?["columns"] as? [[String: Any]])
    #expect(columns.contains { $0["role"] as? String == "amount" && ($0["samples"] as? [String])?.first == "-23,45" })
    #expect(try cli.databaseBytes() == before, "a preview writes nothing")
  }

  @Test func aDryRunListsACappedNumberOfRows() throws {
    let cli = try CLI()
    var rows = "Date,Description,Amount\n"
    for i in 0..<500 { rows += "2026-10-\(i % 28 + 1),Shop \(i),-1.\(i % 90 + 10)\n" }
    let result = try cli.run(["import", try cli.file("many.csv", rows), "--dry-run"])
    #expect(result.code == 0)
    #expect(result.stdout.split(separator: "\n").count < 80, "not 500 lines")
    #expect(result.stdout.contains("450 more rows"))
  }
}

@Suite struct NotTextTests {
  @Test func emptyAndBinaryFilesAreRefusedWithoutPrintingTheirBytes() throws {
    let cli = try CLI()
    let empty = try cli.file("empty.csv", "")
    let emptied = try cli.run(["import", empty])
    #expect(emptied.code == 65 && emptied.stderr.contains("the file is empty"))
    let path = cli.directory.appendingPathComponent("statement.xlsx").path
    try Data([0x50, 0x4B, 0x03, 0x04, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x00, 0x07, 0x9B]).write(
      to: URL(fileURLWithPath: path))
    let binary = try cli.run(["import", path])
    #expect(binary.code == 65)
    #expect(
      binary.stderr.contains(
        "statement.xlsx: this is a ZIP archive, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)"))
    var noise = "Date,Description,Amount\n"
    for i in 0..<40 { noise += "2026-10-\(i % 28 + 1),\u{0}\u{1}\u{2}\u{3}x,-1.00\n" }
    let nulResult = try cli.run(["import", try cli.file("noise.csv", noise)])
    #expect(nulResult.code == 65 && nulResult.stderr.contains("line 2: not a text file"), "\(nulResult.stderr)")
    // One NUL in a description is text with a control character: stored, and shown visibly.
    let one = try cli.file("nul.csv", "Date,Description,Amount\n2026-10-01,a\u{0}b,-1.00\n")
    #expect(try cli.run(["import", one]).code == 0)
    #expect(try cli.run(["list"]).stdout.contains("a\u{2400}b"), "not cut off at the NUL: shown as ␀")
    for result in [emptied, binary, nulResult] {
      #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no raw control bytes")
      #expect(!result.stderr.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) })
    }
  }
}

@Suite struct ZeroDecimalTests {
  @Test func thousandsOfAZeroDecimalCurrencyAreNotDecimals() throws {
    let cli = try CLI()
    let file = try cli.file(
      "krw.csv", "Date,Description,Amount (KRW)\n2026-10-01,a,\"-12,000\"\n2026-10-13,b,\"-3,500\"\n")
    let result = try cli.run(["import", file])
    #expect(result.code == 0, "\(result.stderr)")
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(Set(rows.compactMap { $0["amountMinor"] as? Int }) == [-12000, -3500])
    #expect(rows.allSatisfy { $0["currency"] as? String == "KRW" })
  }
}

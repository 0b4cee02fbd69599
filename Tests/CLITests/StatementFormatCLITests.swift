import Foundation
import Testing

/// Statement formats as a user meets them: the built binary, a file or a pipe, exit codes.
@Suite struct StatementFormatCLITests {
  static let fixtures = [
    "statements/ofx/us_checking_sgml_102.ofx", "statements/qif/quicken_us_checking.qif",
    "statements/camt053/sparkasse-001-02-batch.xml", "statements/mt940/deutsche-bank-structured.sta",
  ]

  @Test(arguments: fixtures) func aStatementPipedToImportDashIsReadLikeTheFile(fixture: String) throws {
    let cli = try CLI()
    let piped = try CLI.runProcess(
      CLI.binary, ["import", "-", "--db", cli.db, "--format", "json"], environment: ["NO_COLOR": "1"],
      standardInput: try FileHandle(forReadingFrom: URL(fileURLWithPath: CLI.fixture(fixture))))
    #expect(piped.code == 0, "\(piped.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any])
    let added = try #require(summary["new"] as? Int)
    #expect(added > 0)
    let file = try cli.run(["import", CLI.fixture(fixture), "--format", "json"])
    #expect(file.code == 0, "\(file.stderr)")
    #expect(file.stdout.contains("\"new\":0") || file.stdout.contains("\"new\" : 0"), "\(file.stdout)")
  }

  @Test func aTruncatedStatementIsRefusedWith65AndWritesNothing() throws {
    let cli = try CLI()
    let whole = try String(contentsOfFile: CLI.fixture("statements/ofx/us_checking_sgml_102.ofx"), encoding: .utf8)
    let cut = try cli.file("cut.ofx", String(whole.prefix(900)))
    #expect(try cli.run(["budget", "set", "Groceries", "100"]).code == 0)
    let before = try cli.databaseBytes()
    let result = try cli.run(["import", cut])
    #expect(result.code == 65)
    #expect(result.stderr.contains("cut.ofx: the file ends inside a transaction"), "\(result.stderr)")
    #expect(result.stderr.contains("hint: the file is truncated"))
    #expect(try cli.databaseBytes() == before)
  }

  @Test func thePreviewSaysWhatTheReaderFound() throws {
    let cli = try CLI()
    let result = try cli.run([
      "import", CLI.fixture("statements/mt940/deutsche-bank-structured.sta"), "--preview", "--width", "60",
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("format") && result.stdout.contains("MT940"))
    #expect(result.stdout.contains("EUR (:60F:)"))
    #expect(!result.stdout.contains("Columns"), "a statement format has no columns to show")
    for line in result.stdout.split(separator: "\n") { #expect(line.count <= 60, "\(line)") }
  }
}

/// A QIF split as the CLI user meets it: one part alone refused with every part's id, the
/// whole split deleted with `--whole-split`.
@Suite struct SplitTransactionCLITests {
  @Test func onePartIsRefusedAndTheWholeSplitGoes() throws {
    let cli = try CLI()
    let imported = try cli.run(["import", CLI.fixture("statements/qif/splits_and_transfers.qif")])
    #expect(imported.code == 0, "\(imported.stderr)")
    let before = try cli.databaseBytes()
    let alone = try cli.run(["delete", "2"])
    #expect(alone.code == 64)
    #expect(
      alone.stderr.contains(
        "expense 2 is one part of a split transaction (expenses 1 2 3): deleting it alone would leave the bank's amount short"
      ), "\(alone.stderr)")
    let edit = try cli.run(["edit", "2", "--amount", "10"])
    #expect(edit.code == 64 && edit.stderr.contains("a part's amount and date can't change alone"), "\(edit.stderr)")
    #expect(try cli.databaseBytes() == before, "nothing was written")
    let whole = try cli.run(["delete", "2", "--whole-split"])
    #expect(whole.code == 0, "\(whole.stderr)")
    #expect(whole.stdout.split(separator: "\n").count == 3, "\(whole.stdout)")
    #expect(try cli.run(["delete", "5", "6"]).code == 0, "all parts named")
  }
}

import Foundation
import TestSupport
import Testing

/// `expenses copy` through the built binary, with a real PostgreSQL: a SQLite file goes to a
/// PostgreSQL ledger and back to a new file, and the three print the same bytes; every refusal
/// a user can meet, with its message and exit code, leaves nothing behind.
@Suite struct CopyCLITests {
  static let bank = """
    Date,Description,Amount,Category
    2026-09-28,Groceries,-80.10,Food
    2026-10-01,Rent,-1200.00,Housing
    2026-10-03,Coffee,-4.50,Dining
    2026-10-04,Salary,2500.00,
    2026-10-05,Lunch,-12.00,
    """

  /// What a user reads of a database: the report as JSON, the list as CSV, the ledger export,
  /// the imports, rules and budgets.
  static func printed(_ cli: CLI, _ db: String) throws -> [String] {
    let commands: [[String]] = [
      ["report", "--format", "json", "--month", "2026-10", "--today", "2026-10-20"],
      ["list", "--format", "csv"], ["export", "--format", "ledger"], ["imports", "--format", "json"],
      ["rules", "list", "--format", "json"], ["budget", "list", "--format", "json"],
    ]
    return try commands.map { command in
      let result = try cli.run(command + ["--db", db], useDatabase: false)
      #expect(result.code == 0, "\(command): \(result.stderr)")
      return result.stdout
    }
  }

  @Test func aFileGoesToPostgresAndBackAndPrintsTheSameBytes() throws {
    let cli = try CLI()
    let csv = try cli.file("bank.csv", Self.bank)
    for command in [
      ["import", csv], ["import", CLI.fixture("statements/qif/splits_and_transfers.qif")],
      ["budget", "set", "Dining", "300"], ["budget", "set", "Dining", "450", "--month", "2026-10"],
      ["rules", "add", "lunch", "Dining"], ["rules", "add", "zzz", "Misc"], ["rules", "remove", "2"],
      ["rules", "apply"], ["delete", "3"],
    ] {
      let result = try cli.run(command)
      #expect(result.code == 0, "\(command): \(result.stderr)")
    }
    let url = try PostgresServer.shared().makeDatabase()
    let there = try cli.run(["copy", "--from", cli.db, "--to", url, "--ledger", "home"], useDatabase: false)
    #expect(there.code == 0, "\(there.stderr)")
    let shownURL = url + "&ledger=home"
    #expect(
      there.stdout
        == "Copied 10 expenses, 2 budgets, 1 rule, 2 imports and 0 tokens from \(cli.db) to \(shownURL)\n")
    let back = cli.directory.appendingPathComponent("back.sqlite").path
    let home = url + "&ledger=home"
    let returned = try cli.run(["copy", "--from", home, "--to", back], useDatabase: false)
    #expect(returned.code == 0, "\(returned.stderr)")
    let original = try Self.printed(cli, cli.db)
    #expect(original[0].contains("\"month\"") && original[1].contains("Rent") && original[2].contains("Salary"))
    #expect(try Self.printed(cli, home) == original)
    #expect(try Self.printed(cli, back) == original)
    let again = try cli.run(["import", csv, "--format", "json", "--db", back], useDatabase: false)
    #expect(again.code == 0)
    // Expense 3 (Coffee) was deleted before the copy: the one row that is new again.
    #expect(again.stdout.contains("\"new\" : 1") || again.stdout.contains("\"new\":1"), "\(again.stdout)")
    let twice = try cli.run(["import", csv, "--format", "json", "--db", home], useDatabase: false)
    #expect(twice.stdout.contains("\"new\" : 1") || twice.stdout.contains("\"new\":1"), "\(twice.stdout)")
  }

  @Test func everyRefusalHasItsMessageAndExitCode() throws {
    let cli = try CLI()
    #expect(try cli.run(["import", try cli.file("bank.csv", Self.bank)]).code == 0)
    let url = try PostgresServer.shared().makeDatabase()
    let missing = cli.directory.appendingPathComponent("missing.sqlite").path
    let taken = try cli.file("taken.sqlite", "keep")
    let cases: [([String], Int32, String)] = [
      (
        ["copy", "--from", missing, "--to", url], 66,
        "no database at \(missing): nothing has been imported there yet"
      ),
      (
        ["copy", "--from", url, "--to", taken], 73,
        "\(taken) already exists (a regular file); a copy writes a new database file and never replaces anything. Nothing was copied\n  hint: name a path that does not exist yet"
      ),
      (
        ["copy", "--from", cli.db, "--to", "postgres://me:secret@/"], 64,
        "--to is not a PostgreSQL URL: write postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE or postgres://USER@/DATABASE?host=SOCKET_DIR (with &ledger=NAME to name a ledger)"
      ),
      (
        ["copy", "--from", cli.db, "--to", taken + "2", "--ledger", "home"], 64,
        "--ledger: it names a ledger of a PostgreSQL database, and neither --from nor --to is one"
      ),
    ]
    for (command, code, message) in cases {
      let result = try cli.run(command, useDatabase: false)
      #expect(result.code == code, "\(command): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
      #expect(!result.stderr.contains("secret") && result.stdout.isEmpty)
    }
    #expect(try String(contentsOfFile: taken, encoding: .utf8) == "keep")
    #expect(!FileManager.default.fileExists(atPath: missing) && !FileManager.default.fileExists(atPath: taken + "2"))

    #expect(try cli.run(["copy", "--from", cli.db, "--to", url], useDatabase: false).code == 0)
    let full = try cli.run(["copy", "--from", cli.db, "--to", url], useDatabase: false)
    #expect(full.code == 73)
    #expect(
      full.stderr.contains(
        "ledger 'default' of \(url) already holds data (5 expenses, 1 import, 1 history change); nothing was copied. A copy goes into an empty ledger only\n  hint: name a new ledger with --ledger NAME, or copy into a new database"
      ), "\(full.stderr)")
    let noLedger = try cli.run(
      ["copy", "--from", url, "--ledger", "nope", "--to", taken + "3"], useDatabase: false)
    #expect(noLedger.code == 66 && noLedger.stderr.contains("has no ledger named 'nope'"), "\(noLedger.stderr)")
    let listed = try cli.run(["list", "--format", "csv", "--db", url + "&ledger=nope"], useDatabase: false)
    #expect(listed.code == 66 && listed.stderr.contains("has no ledger named 'nope'"), "\(listed.stderr)")
  }
}

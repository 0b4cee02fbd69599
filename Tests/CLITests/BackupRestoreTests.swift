import Foundation
import Testing

/// `check`, `backup` and `restore` as a user runs them, including a backup taken while another
/// process imports, and a restore over rows that still sit in the write-ahead log.
@Suite struct BackupRestoreTests {
  let small = """
    Date,Description,Amount,Category
    2026-09-30,Bakery,-4.20,Food
    2026-10-01,Whole Foods Market,-54.20,Groceries
    2026-10-05,Salary,2500.00,Salary
    """
  let later = """
    Date,Description,Amount,Category
    2026-10-07,Written just before the restore,-9.99,Groceries
    2026-10-08,Also too late,-1.00,Groceries
    """

  /// Descriptions stored, sorted.
  func descriptions(_ cli: CLI) throws -> [String] {
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    return rows.compactMap { $0["description"] as? String }.sorted()
  }

  @Test func checkFindsAndRepairsAStaleRollup() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    let healthy = try cli.run(["check"])
    #expect(healthy.code == 0, "\(healthy.stderr)")
    #expect(healthy.stdout.contains("integrity: ok") && healthy.stdout.contains("rollup monthTotal: ok"))
    // A hand-written fix that forgot the totals.
    try Python.sqlite(cli.db, "DELETE FROM expense WHERE description = 'Bakery'")
    let stale = try cli.run(["check"])
    #expect(stale.code == 65)
    #expect(stale.stdout.contains("2026-09"), "names the month: \(stale.stdout)")
    #expect(stale.stderr.contains("check --repair"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(try cli.run(["check", "--format", "json"]).stdout.utf8))
        as? [String: Any])
    #expect(json["healthy"] as? Bool == false)
    let problems = try #require(json["problems"] as? [[String: Any]])
    #expect(problems.first?["kind"] as? String == "rollup out of step")
    #expect(problems.first?["months"] as? [String] == ["2026-09"])
    #expect(problems.first?["repairable"] as? Bool == true)
    let repaired = try cli.run(["check", "--repair"])
    #expect(repaired.code == 0, "\(repaired.stdout)\(repaired.stderr)")
    #expect(repaired.stdout.contains("repaired: rebuilt monthTotal"))
    #expect(try cli.run(["check"]).code == 0)
  }

  @Test func checkNamesUnreadableRowsAndADamagedFile() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    try Python.sqlite(cli.db, "UPDATE expense SET amountMinor = 4.2 WHERE description = 'Bakery'")
    let unreadable = try cli.run(["check", "--repair"])
    #expect(unreadable.code == 65)
    #expect(unreadable.stdout.contains("not a whole number") && unreadable.stdout.contains("2026-09"))
    #expect(unreadable.stdout.contains("not repaired"))
    try Python.sqlite(cli.db, "UPDATE expense SET amountMinor = 420 WHERE description = 'Bakery'")
    // Enough rows for the expense table to span many pages, then garbage over one in the middle.
    try Python.sqlite(
      cli.db,
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
      INSERT INTO expense (key, id, date, amountMinor, currency, description)
      SELECT (20000 + 524288) << 43 | i, 100 + i, '2024-10-04', -i, 'USD', printf('filler row %d', i) FROM n;
      PRAGMA wal_checkpoint(TRUNCATE);
      """)
    try Damage.overwriteMiddlePage(of: cli.db)
    let damaged = try cli.run(["check"])
    #expect(damaged.code == 65, "\(damaged.code) \(damaged.stderr)")
    #expect(damaged.stdout.contains("integrity: ") && !damaged.stdout.contains("integrity: ok"))
    #expect(damaged.stderr.contains(cli.db) && damaged.stderr.contains("restore"), "\(damaged.stderr)")
  }

  @Test func backupIsPrivateAndNeverOverwrites() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    let target = cli.directory.appendingPathComponent("copy.sqlite").path
    let first = try cli.run(["backup", target])
    #expect(first.code == 0, "\(first.stderr)")
    #expect(first.stdout.contains("3 expenses"))
    let mode = try #require(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int)
    #expect(mode == 0o600)
    let before = try Data(contentsOf: URL(fileURLWithPath: target))
    let again = try cli.run(["backup", target])
    #expect(again.code == 73 && again.stderr.contains("copy.sqlite") && again.stderr.contains("--force"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    for protected in [cli.db, cli.db + "-wal", cli.db + "-shm"] {
      let refused = try cli.run(["backup", protected, "--force"])
      #expect(refused.code == 73, "\(protected): \(refused.stderr)")
    }
    #expect(try descriptions(cli).count == 3, "the database is untouched")
    #expect(try cli.run(["backup", target, "--force"]).code == 0)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).filter {
      $0.hasPrefix(".")
    }
    #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
  }

  @Test func restoreReplacesRowsStillInTheWriteAheadLog() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    let backup = cli.directory.appendingPathComponent("backup.sqlite").path
    #expect(try cli.run(["backup", backup]).code == 0)
    // Another connection holds a read transaction, so the next import's pages stay in the WAL
    // (not checkpointed into the file) when the restore runs.
    let holder = try Python.holdReadTransaction(cli.db)
    #expect(try cli.run(["import", try cli.file("later.csv", later)]).code == 0)
    let walSize = (try? FileManager.default.attributesOfItem(atPath: cli.db + "-wal")[.size] as? Int) ?? 0
    #expect(walSize > 0, "the later rows are in the WAL")
    kill(holder.processIdentifier, SIGKILL)
    holder.waitUntilExit()
    let restored = try cli.run(["restore", backup])
    #expect(restored.code == 0, "\(restored.stderr)")
    #expect(restored.stdout.contains("Restored 3 expenses"))
    #expect(try descriptions(cli) == ["Bakery", "Salary", "Whole Foods Market"], "the later rows do not come back")
    #expect(try Python.sqlite(cli.db, "PRAGMA integrity_check") == "ok")
    #expect(try cli.run(["check"]).code == 0)
    // The previous database is kept beside it, and a second restore does not overwrite it.
    let previous = try CLI.rows(atPath: cli.db + ".before-restore")
    #expect(previous == 5)
    let second = try cli.run(["restore", backup])
    #expect(second.code == 73 && second.stderr.contains("before-restore"))
    #expect(try cli.run(["restore", backup, "--force"]).code == 0)
    // The restored database takes new writes as usual.
    #expect(try cli.run(["import", try cli.file("later.csv", later)]).code == 0)
    #expect(try descriptions(cli).count == 5)
    #expect(try cli.run(["check"]).code == 0)
  }

  @Test func restoreWaitsForAWriterThenGivesUpLeavingEverythingAsItWas() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    let backup = cli.directory.appendingPathComponent("backup.sqlite").path
    #expect(try cli.run(["backup", backup]).code == 0)
    #expect(try cli.run(["import", try cli.file("later.csv", later)]).code == 0)
    let holder = try Python.holdReadTransaction(cli.db, writing: true)
    let busy = try cli.run(["restore", backup, "--wait", "1"])
    kill(holder.processIdentifier, SIGKILL)
    holder.waitUntilExit()
    #expect(busy.code == 75, "\(busy.stderr)")
    #expect(busy.stderr.contains(cli.db), "names the database: \(busy.stderr)")
    #expect(try descriptions(cli).count == 5, "nothing restored")
    let left = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).filter {
      $0.contains("before-restore") || $0.contains(".restore.")
    }
    #expect(left.isEmpty, "no copy left behind: \(left)")
    // Once the writer is gone the same restore goes through.
    #expect(try cli.run(["restore", backup]).code == 0)
    #expect(try descriptions(cli).count == 3)
  }

  @Test func restoreRefusesFilesThatAreNotUsableBackups() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    let missing = try cli.run(["restore", cli.directory.appendingPathComponent("nope.sqlite").path])
    #expect(missing.code == 66 && missing.stderr.contains("nope.sqlite"))
    let text = try cli.file("notes.txt", "hello, not a database\n")
    let notSQLite = try cli.run(["restore", text])
    #expect(notSQLite.code == 65 && notSQLite.stderr.contains("notes.txt"), "\(notSQLite.stderr)")
    let foreign = cli.directory.appendingPathComponent("other-app.sqlite").path
    try Python.sqlite(foreign, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')")
    let notOurs = try cli.run(["restore", foreign])
    #expect(notOurs.code == 65 && notOurs.stderr.contains("not an expenses database"), "\(notOurs.stderr)")
    let newer = cli.directory.appendingPathComponent("newer.sqlite").path
    #expect(try cli.run(["backup", newer]).code == 0)
    try Python.sqlite(newer, "PRAGMA user_version = 42")
    let tooNew = try cli.run(["restore", newer])
    #expect(tooNew.code == 65 && tooNew.stderr.contains("newer version"), "\(tooNew.stderr)")
    #expect(try descriptions(cli).count == 3, "nothing was restored")
    #expect(!FileManager.default.fileExists(atPath: cli.db + ".before-restore"))
  }

  @Test func backupDuringAnImportThenRestore() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["import", try cli.file("bank.csv", small)]).code == 0)
    let big = try Generated.file(rows: 100_000, in: cli.directory)
    let importer = try cli.start(["import", big])
    // Wait until the import is well into the file (it has read 2 MiB of it, past the detection
    // sample; the transaction stays open until the end) before taking the copy.
    var waited = 0
    while importer.isRunning && waited < 20_000 {
      let io = (try? String(contentsOfFile: "/proc/\(importer.processIdentifier)/io", encoding: .utf8)) ?? ""
      let read = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap {
        Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces))
      }
      if (read ?? 0) > 2 << 20 { break }
      usleep(2_000)
      waited += 2
    }
    let backup = cli.directory.appendingPathComponent("during.sqlite").path
    let taken = try cli.run(["backup", backup])
    let importWasRunning = importer.isRunning
    importer.waitUntilExit()
    #expect(importer.terminationStatus == 0, "the import is not disturbed")
    #expect(taken.code == 0, "\(taken.stderr)")
    // A snapshot: the import's rows are all in it or none of them.
    let copied = try CLI.rows(atPath: backup)
    #expect(copied == 3 || copied == 100_003, "\(copied) rows")
    if importWasRunning { #expect(copied == 3, "the copy does not see an import that has not committed") }
    print("backup during import: \(copied) rows copied; import still running when the copy ended: \(importWasRunning)")
    #expect(try Python.sqlite(backup, "PRAGMA integrity_check") == "ok")
    #expect(try cli.run(["restore", backup]).code == 0)
    #expect(try CLI.rows(atPath: cli.db) == copied)
    let check = try cli.run(["check"])
    #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
  }
}

import Foundation
import GRDBSQLite
import Testing

/// Data safety at the level a user sees (docs/reliability.md): the built binary against files that are foreign, locked,
/// damaged, read-only or on a full disk, and outputs that fail. Each test fails when data is
/// lost or a command crashes.
@Suite struct ReliabilityTests {
  @Test func rejectsNeverOverwriteTheDatabaseTheInputOrAnExistingFile() throws {
    let cli = try CLI()
    let input = try cli.file("bank.csv", BankFiles.oneBadRow)
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let database = try cli.databaseBytes()
    let original = try Data(contentsOf: URL(fileURLWithPath: input))

    for target in [cli.db, cli.db + "-wal", input] {
      let result = try cli.run(["import", input, "--skip-invalid", "--rejects", target])
      #expect(result.code == 73, "rejects aimed at \(target): \(result.stderr)")
      #expect(result.stderr.contains("refusing to write"))
    }
    #expect(try cli.databaseBytes() == database, "the database is byte-for-byte unchanged")
    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original, "the bank file is unchanged")
    #expect(try cli.json(["list", "--format", "json"]) as? [Any] != nil)

    let existing = try cli.file("old.csv", "keep me\n")
    let refused = try cli.run(["import", input, "--skip-invalid", "--rejects", existing])
    #expect(refused.code == 73 && refused.stderr.contains("--force"))
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")

    let forced = try cli.run(["import", input, "--skip-invalid", "--rejects", existing, "--force"])
    #expect(forced.code == 0, "\(forced.stderr)")
    let rejects = try String(contentsOfFile: existing, encoding: .utf8)
    #expect(rejects.hasPrefix("line,column,value,message,hint,record\n"))
    #expect(rejects.contains("3,Amount,twelve,"), "line, column and raw value")
    #expect(rejects.contains("\"2026-10-02,Bakery,twelve\""), "the original record")
    let mode = try FileManager.default.attributesOfItem(atPath: existing)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).filter {
      $0.hasPrefix(".old.csv.")
    }
    #expect(leftovers.isEmpty, "no temporary file left behind")
  }

  @Test func overflowingImportsAreRefusedAndReportsKeepWorking() throws {
    let cli = try CLI()
    let first = try cli.file("a.csv", "Date,Description,Amount\n2026-10-01,Huge,-40000000000000000.00\n")
    let second = try cli.file("b.csv", "Date,Description,Amount\n2026-10-02,Huge again,-40000000000000000.00\n")
    #expect(try cli.run(["import", first]).code == 0)
    let refused = try cli.run(["import", second])
    #expect(refused.code == 65)
    #expect(refused.stderr.contains("b.csv"), "\(refused.stderr)")
    for month in ["2026-10", "2026-11", "2027-01"] {
      let report = try cli.run(["report", "--month", month, "--today", "2026-10-20", "--width", "80"])
      #expect(report.code == 0, "\(month): \(report.stderr)")
      let json = try cli.run(["report", "--month", month, "--today", "2026-10-20", "--format", "json"])
      #expect(json.code == 0, "\(month): \(json.stderr)")
    }
    // One file with both rows: refused at the row that passes the limit, nothing written.
    let both = try cli.file(
      "both.csv",
      "Date,Description,Amount\n2026-12-01,Huge,-30000000000000000.00\n2026-12-02,Huge too,-30000000000000000.00\n")
    let before = try cli.databaseBytes()
    let result = try cli.run(["import", both])
    #expect(result.code == 65)
    #expect(result.stderr.contains("both.csv:3:"), "names the line: \(result.stderr)")
    #expect(try cli.databaseBytes() == before)
  }

  @Test func readersDoNotWaitForAWriterAndWritersGiveUpWith75() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let lock = try Connection(cli.db)
    try lock.execute("BEGIN IMMEDIATE; INSERT INTO setting (key, value) VALUES ('held', 'yes')")
    // --wait 1: a command that needed the lock would give up after a second with exit 75.
    let report = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20", "--wait", "1"])
    #expect(report.code == 0, "\(report.stderr)")
    #expect(report.stdout.contains("$3.00"))
    for command in [["list"], ["categories"], ["budget", "list"], ["sections", "list"], ["rules", "list"]] {
      let result = try cli.run(command + ["--wait", "1"])
      #expect(result.code == 0, "\(command): \(result.stderr)")
    }
    let writer = try cli.run(["add", "2026-10-02", "4", "Cake", "--wait", "1"])
    #expect(writer.code == 75)
    #expect(writer.stderr.contains(cli.db) && writer.stderr.contains("another process is writing"))
    try lock.execute("ROLLBACK")
    lock.close()
    let list = try cli.run(["list", "--format", "json"])
    #expect(!list.stdout.contains("Cake"), "nothing written by the refused writer")
  }

  @Test func outputErrorsAreErrorsNotCrashes() throws {
    let cli = try CLI()
    let input = try cli.file("bank.csv", BankFiles.oneBadRow.replacingOccurrences(of: "twelve", with: "-12.00"))
    let binary = CLI.binary.path
    try cli.run(["sections", "reset"])  // a reading command needs the database to exist
    let full = try shell("'\(binary)' categories --db '\(cli.db)' > /dev/full", cli)
    #expect(full.code == 74, "\(full.stderr)")
    #expect(full.stderr.contains("cannot write to standard output"))
    #expect(!full.stderr.contains("Fatal error"))

    let imported = try shell("'\(binary)' import '\(input)' --db '\(cli.db)' > /dev/full", cli)
    #expect(imported.code == 74)
    #expect(imported.stderr.contains("was committed (3 new rows)"), "\(imported.stderr)")
    #expect(try cli.run(["list", "--format", "json"]).stdout.contains("Groceries"))

    // A reader that goes away after one line of a list bigger than the pipe's buffer (64 KiB).
    var rows = "Date,Description,Amount\n"
    for i in 0..<3000 { rows += "2026-10-\(i % 28 + 1),A shop with a long description number \(i),-\(i).10\n" }
    #expect(try cli.run(["import", try cli.file("many.csv", rows)]).code == 0)
    let closed = try shell("( '\(binary)' list --db '\(cli.db)'; echo \"rc=$?\" >&2 ) | head -1", cli)
    #expect(closed.stdout.trimmingCharacters(in: .whitespaces).hasPrefix("Id  Date"), "\(closed.stdout)")
    #expect(closed.stderr.contains("rc=0"), "\(closed.stderr)")
    #expect(!closed.stderr.contains("expenses:"), "quiet: \(closed.stderr)")
  }

  @Test func foreignSQLiteFilesAreRefusedUnchanged() throws {
    let cli = try CLI()
    let path = cli.directory.appendingPathComponent("other-app.sqlite").path
    let other = try Connection(path)
    try other.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
    other.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    for command in [["report"], ["list"], ["add", "2026-10-01", "3", "Tea"]] {
      let result = try cli.run(command + ["--db", path], useDatabase: false)
      #expect(result.code == 65, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("not an expenses database"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "byte-for-byte, journal mode included")
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func databasesFromBeforeTheApplicationIDAreRecognisedAndClaimedOnWrite() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    let connection = try Connection(cli.db)
    #expect(try connection.integer("PRAGMA application_id") == 0x4558_5053)
    try connection.execute("PRAGMA application_id = 0")
    connection.close()
    let before = try cli.databaseBytes()
    #expect(try cli.run(["report", "--today", "2026-10-20"]).code == 0)
    #expect(try cli.databaseBytes() == before, "a read writes nothing, not even the id")
    #expect(try cli.run(["add", "2026-10-02", "4", "Cake"]).code == 0)
    let after = try Connection(cli.db)
    defer { after.close() }
    #expect(try after.integer("PRAGMA application_id") == 0x4558_5053)
  }

  @Test func damageStopsEveryCommandWithExit65AndAHint() throws {
    let cli = try CLI()
    var rows = "Date,Description,Amount\n"
    for day in 0..<3000 { rows += "2026-\(10 + day % 2)-\(day % 28 + 1),Shop \(day) with a longer name,-\(day).25\n" }
    #expect(try cli.run(["import", try cli.file("bank.csv", rows)]).code == 0)
    // Overwrite pages in the middle of the file (page size 4096) with garbage.
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: cli.db))
    try handle.seek(toOffset: 4096 * 3)
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 20))
    try handle.close()
    let before = try cli.databaseBytes()
    for command in [["list"], ["import", try cli.file("more.csv", "Date,Description,Amount\n2026-10-05,X,-1\n")]] {
      let result = try cli.run(command)
      #expect(result.code == 65, "\(command): \(result.code) \(result.stderr)")
      #expect(result.stderr.contains(cli.db) && result.stderr.contains("expenses check"), "\(result.stderr)")
      #expect(!result.stderr.contains("Fatal error"))
    }
    #expect(try cli.databaseBytes() == before, "no write after the damage was found")
  }

  @Test func readOnlyDatabasesAnswerReadsAndRefuseWritesWith74() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    // A read-only folder holding a read-only file, as another user sees it.
    let folder = cli.directory.appendingPathComponent("ro")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("db.sqlite").path
    try FileManager.default.copyItem(atPath: cli.db, toPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cli.directory.path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
    // Root ignores permissions: run as nobody then (setpriv is part of util-linux).
    let asUser = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
    let binary = CLI.binary.path
    let report = try shell("\(asUser)'\(binary)' report --db '\(path)' --today 2026-10-20 --width 60", cli)
    #expect(report.code == 0, "\(report.stderr)")
    #expect(report.stdout.contains("$3.00"))
    let list = try shell("\(asUser)'\(binary)' list --db '\(path)' --format json", cli)
    #expect(list.code == 0 && list.stdout.contains("Tea"), "\(list.stderr)")
    let add = try shell("\(asUser)'\(binary)' add 2026-10-02 4 Cake --db '\(path)'", cli)
    #expect(add.code == 74, "\(add.stderr)")
    #expect(add.stderr.contains(path) && add.stderr.contains("read-only"))
  }

  @Test func aFullDiskExits74AndKeepsTheEarlierData() throws {
    let cli = try CLI()
    let folder = cli.directory.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // A 1.6 MiB disk where the system lets us mount one (root in CI); else a file-size limit,
    // which SQLite sees as a failed write in the same place. Room for a new database (about
    // 40 tables and indexes of one 16 KiB page each) and one row, not for 20,000 more.
    let mounted = try shell("mount -t tmpfs -o size=1600k tmpfs '\(folder.path)'", cli).code == 0
    defer { if mounted { _ = try? shell("umount '\(folder.path)'", cli) } }
    let path = folder.appendingPathComponent("db.sqlite").path
    let binary = CLI.binary.path
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea", "--db", path], useDatabase: false).code == 0)
    var rows = "Date,Description,Amount\n"
    for i in 0..<20000 {
      rows += "2026-\(i % 9 + 1)-\(i % 28 + 1),A shop with a long description number \(i),-\(i).10\n"
    }
    let input = try cli.file("big.csv", rows)
    let limit = mounted ? "" : "ulimit -f 1600; trap '' XFSZ; "
    let result = try shell("\(limit)exec '\(binary)' import '\(input)' --db '\(path)'", cli)
    #expect(result.code == 74, "\(result.stderr)")
    #expect(result.stderr.contains(path), "names the database: \(result.stderr)")
    if mounted { #expect(result.stderr.contains("disk is full")) }
    let list = try cli.run(["list", "--format", "json", "--db", path], useDatabase: false)
    #expect(list.code == 0 && list.stdout.contains("Tea") && !list.stdout.contains("A shop"), "\(list.stderr)")
    let check = try Connection(path)
    defer { check.close() }
    #expect(try check.text("PRAGMA integrity_check") == "ok")
  }

  /// Runs `script` with /bin/sh in the test's folder.
  func shell(_ script: String, _ cli: CLI) throws -> CLI.Result {
    try CLI.runProcess(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script],
      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": cli.directory.path, "LANG": "C.UTF-8"],
      directory: cli.directory, standardInput: nil)
  }
}

/// A raw SQLite connection for tests: another process's lock, a foreign file, a header field.
final class Connection {
  private var handle: OpaquePointer?

  init(_ path: String) throws {
    guard sqlite3_open(path, &handle) == SQLITE_OK else { throw Failure(message: "cannot open \(path)") }
    sqlite3_busy_timeout(handle, 5000)
  }

  func execute(_ sql: String) throws {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? "?"
      sqlite3_free(error)
      throw Failure(message: message)
    }
  }

  func integer(_ sql: String) throws -> Int64 {
    try row(sql) { sqlite3_column_int64($0, 0) }
  }

  func text(_ sql: String) throws -> String {
    try row(sql) { String(cString: sqlite3_column_text($0, 0)) }
  }

  private func row<T>(_ sql: String, _ read: (OpaquePointer?) -> T) throws -> T {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure(message: sql) }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(message: "no row: \(sql)") }
    return read(statement)
  }

  func close() {
    sqlite3_close(handle)
    handle = nil
  }

  struct Failure: Error { var message: String }
}

@Suite struct StoredValueTests {
  @Test func aValueOfTheWrongTypeIsAnErrorNamingTheMonthNotATrap() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea", "--category", "Food"]).code == 0)
    let connection = try Connection(cli.db)
    try connection.execute("UPDATE monthTotal SET outflow = 1e19 WHERE month = '2026-10'")
    connection.close()
    let report = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20"])
    #expect(report.code == 65, "\(report.stderr)")
    #expect(report.stderr.contains(cli.db) && report.stderr.contains("2026-10"), "\(report.stderr)")
    #expect(report.stderr.contains("expenses check"))
    let connection2 = try Connection(cli.db)
    try connection2.execute("UPDATE expense SET amountMinor = 'lots'")
    connection2.close()
    let list = try cli.run(["list"])
    #expect(list.code == 65, "\(list.stderr)")
    #expect(!list.stderr.contains("Fatal error"))
  }
}

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A database with one page overwritten: writers stop before writing (65), `restore` brings a
/// backup back and keeps the damaged file, and a SIGKILL during a restore never leaves the new
/// database without the kept copy. A large import over a file-size limit is 74, naming the file.
@Suite struct DamagedDatabaseTests {
  static let small = """
    Date,Description,Amount,Category
    2026-09-30,Bakery,-4.20,Food
    2026-10-01,Whole Foods Market,-54.20,Groceries
    2026-10-05,Salary,2500.00,Salary
    """

  /// Imports 3,000 rows (the expense table spans many pages), folds the WAL into the file, and
  /// overwrites the page in the middle of the file with garbage; returns the bytes after.
  static func damage(_ cli: CLI) throws -> Data {
    var rows = "Date,Description,Amount\n"
    for day in 0..<3000 { rows += "2026-\(10 + day % 2)-\(day % 28 + 1),Shop \(day) with a longer name,-\(day).25\n" }
    #expect(try cli.run(["import", try cli.file("many.csv", rows)]).code == 0)
    try Python.sqlite(cli.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    try Damage.overwriteMiddlePage(of: cli.db)
    let check = try cli.run(["check"])
    #expect(check.code == 65, "check sees the damage: \(check.stdout)\(check.stderr)")
    return try cli.databaseBytes()
  }

  @Test func writersStopOnOneDamagedPage() throws {
    let cli = try CLI()
    let damaged = try Self.damage(cli)
    let more = try cli.file("more.csv", "Date,Description,Amount\n2026-10-05,Late row,-1\n")
    for command in [["add", "2026-10-01", "3", "Tea"], ["import", more], ["budget", "set", "Food", "10"]] {
      let result = try cli.run(command)
      #expect(result.code == 65, "\(command): \(result.code) \(result.stderr)")
      #expect(result.stderr.contains(cli.db) && result.stderr.contains("is damaged"), "\(result.stderr)")
      #expect(result.stderr.contains("expenses check") && result.stderr.contains("expenses restore"))
      #expect(try cli.databaseBytes() == damaged, "\(command) wrote nothing")
      #expect(!FileManager.default.fileExists(atPath: cli.db + "-wal") || walIsEmpty(cli.db))
    }
  }

  func walIsEmpty(_ db: String) -> Bool {
    ((try? FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? Int) ?? 0) == 0
  }

  @Test func restoreBringsABackupBackOverADamagedDatabase() throws {
    let cli = try CLI()
    #expect(try cli.run(["import", try cli.file("bank.csv", Self.small)]).code == 0)
    let backup = cli.directory.appendingPathComponent("backup.sqlite").path
    #expect(try cli.run(["backup", backup]).code == 0)
    let damaged = try Self.damage(cli)
    let restored = try cli.run(["restore", backup])
    #expect(restored.code == 0, "\(restored.code) \(restored.stderr)")
    #expect(restored.stdout.contains("Restored 3 expenses") && restored.stdout.contains("before-restore"))
    let report = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20", "--width", "60"])
    #expect(report.code == 0 && report.stdout.contains("54.20"), "\(report.stderr)")
    #expect(try cli.run(["check"]).code == 0)
    let kept = try Data(contentsOf: URL(fileURLWithPath: cli.db + ".before-restore"))
    #expect(kept == damaged, "the damaged file is kept as it was")
    #expect(try cli.run(["add", "2026-10-06", "3", "Tea"]).code == 0, "the restored database takes writes")
  }

  @Test func restoreReplacesAFileSQLiteCannotOpen() throws {
    let cli = try CLI()
    #expect(try cli.run(["import", try cli.file("bank.csv", Self.small)]).code == 0)
    let backup = cli.directory.appendingPathComponent("backup.sqlite").path
    #expect(try cli.run(["backup", backup]).code == 0)
    // The header page itself overwritten: SQLite cannot even read the schema.
    let handle = try #require(FileHandle(forUpdatingAtPath: cli.db))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
    try handle.close()
    let damaged = try cli.databaseBytes()
    let restored = try cli.run(["restore", backup])
    #expect(restored.code == 0, "\(restored.code) \(restored.stderr)")
    #expect(try CLI.rows(atPath: cli.db) == 3)
    #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db + ".before-restore")) == damaged)
    #expect(try cli.run(["check"]).code == 0)
  }

  /// Rows and a digest of every expense, read by another program ("missing" when the file is).
  func digest(_ path: String) throws -> String {
    guard FileManager.default.fileExists(atPath: path) else { return "missing" }
    let script = """
      import hashlib, sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      h, n = hashlib.sha256(), 0
      for row in c.execute('SELECT key, id, date, amountMinor, description FROM expense ORDER BY key'):
          h.update(repr(row).encode()); n += 1
      print('%d %s' % (n, h.hexdigest()))
      """
    let result = try Python.run(["-c", script, path])
    #expect(result.code == 0, "\(result.output)")
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func sigkillDuringRestoreKeepsTheOldDatabaseOrTheNewOneWithTheCopy() throws {
    let cli = try CLI()
    let folder = cli.directory.path
    #expect(try cli.run(["import", try cli.file("bank.csv", Self.small)]).code == 0)
    let backup = folder + "/backup.sqlite"
    #expect(try cli.run(["backup", backup]).code == 0)
    let newDigest = try digest(backup)
    // The database a restore replaces: 30,000 rows, checkpointed.
    let base = folder + "/base.sqlite"
    let big = try Generated.file(rows: 30_000, in: cli.directory)
    #expect(try cli.run(["import", big, "--db", base], useDatabase: false).code == 0)
    try Python.sqlite(base, "PRAGMA wal_checkpoint(TRUNCATE)")
    let oldDigest = try digest(base)
    let trial = folder + "/trial.sqlite"
    func fresh() throws {
      for suffix in ["", "-wal", "-shm", ".before-restore", ".before-restore-wal"] { unlink(trial + suffix) }
      try FileManager.default.copyItem(atPath: base, toPath: trial)
    }
    try fresh()
    let start = DispatchTime.now().uptimeNanoseconds
    let whole = try cli.run(["restore", backup, "--db", trial], useDatabase: false)
    let time = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000)
    #expect(whole.code == 0, "\(whole.stderr)")

    var random = SeededRandom(state: 20_261_124)
    var landed = 0
    for _ in 0..<12 {
      try fresh()
      let delay = random.int(0...time)
      let process = try cli.start(["restore", backup], database: trial)
      usleep(UInt32(delay))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { landed += 1 }
      let now = try digest(trial)
      let kept = try digest(trial + ".before-restore")
      #expect(
        now == oldDigest || (now == newDigest && kept == oldDigest),
        "killed at \(delay) µs: database \(now), kept copy \(kept)")
      // The next start cleans what the killed restore left, and the restore goes through.
      let again = try cli.run(["restore", backup, "--force", "--db", trial], useDatabase: false)
      #expect(again.code == 0, "\(again.stderr)")
      #expect(try digest(trial) == newDigest)
      let hidden = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
      #expect(hidden.isEmpty, "leftovers after the next restore: \(hidden)")
    }
    print("restore: \(landed) of 12 kills landed mid-command (restore takes \(time) µs)")
  }

  @Test func aLargeImportOverAFileSizeLimitIs74NamingTheDatabase() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    try Python.sqlite(cli.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    let before = try digest(cli.db)
    let big = try Generated.file(rows: 100_000, in: cli.directory)
    // 2 MiB at most per file (ulimit counts 512-byte blocks): the import's pages spill past it.
    let script = "ulimit -f 4096; exec '\(CLI.binary.path)' import '\(big)' --db '\(cli.db)'"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": cli.directory.path, "LANG": "C.UTF-8"]
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "not killed by SIGXFSZ")
    #expect(process.terminationStatus == 74, "\(process.terminationStatus) \(stderr)")
    #expect(stderr.contains(cli.db), "names the database: \(stderr)")
    #expect(!stderr.contains("database error"), "\(stderr)")
    #expect(try digest(cli.db) == before, "all or nothing: nothing of the import")
    #expect(try Python.sqlite(cli.db, "PRAGMA integrity_check") == "ok")
  }
}

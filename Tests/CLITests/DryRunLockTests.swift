import Foundation
import Testing

/// A dry run or a preview reads: while another process holds the database's write lock (a long
/// import, say), both answer at once, and only the real import waits for the lock (here: exits
/// 75 with `--wait 0`). Before, a dry run took the write lock itself, so a preview of a large
/// file held every writer up for as long as it read.
@Suite struct DryRunLockTests {
  @Test func aDryRunAndAPreviewNeverWaitForTheWriter() throws {
    let cli = try CLI()
    let bank = try cli.file("bank.csv", "Date,Amount,Description\n2026-10-05,-2.50,Coffee\n2026-10-06,-9.00,Lunch\n")
    #expect(try cli.run(["import", bank]).code == 0)
    let more = try cli.file("more.csv", "Date,Amount,Description\n2026-10-05,-2.50,Coffee\n2026-10-07,-4.00,Tea\n")
    // A second process holds the write lock until its standard input closes.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    holder.arguments = [
      "python3", "-c",
      "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE'); "
        + "print('locked', flush=True); sys.stdin.read()",
      cli.db,
    ]
    let input = Pipe()
    let output = Pipe()
    holder.standardInput = input
    holder.standardOutput = output
    try holder.run()
    defer {
      try? input.fileHandleForWriting.close()
      holder.waitUntilExit()
    }
    let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    try #require(said.contains("locked"), "the holder took the lock: \(said)")
    let dryRun = try cli.run(["import", more, "--dry-run", "--wait", "0", "--format", "json"])
    #expect(dryRun.code == 0, "\(dryRun.stderr)")
    let summary = try JSONSerialization.jsonObject(with: Data(dryRun.stdout.utf8)) as? [String: Any]
    #expect(summary?["new"] as? Int == 1 && summary?["duplicates"] as? Int == 1, "\(dryRun.stdout)")
    let preview = try cli.run(["import", more, "--preview", "--wait", "0"])
    #expect(preview.code == 0 && preview.stdout.contains("Tea"), "\(preview.stderr)")
    let real = try cli.run(["import", more, "--wait", "0"])
    #expect(real.code == 75, "the real import needs the lock the holder has: \(real.code) \(real.stderr)")
  }
}

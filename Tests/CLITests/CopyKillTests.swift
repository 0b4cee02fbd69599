import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A `copy` killed at any moment leaves nothing behind: into PostgreSQL no ledger is registered
/// unless the copy committed whole (the ledger is made in the copy's own transaction); into a
/// new SQLite file, nothing at the target, and the hidden files the killed run had beside it
/// are removed by the next copy there.
@Suite struct CopyKillTests {
  /// A database of `rows` rows, enough for a copy to take a moment.
  static func source(_ cli: CLI, rows: Int) throws {
    var text = "Date,Amount,Description\n"
    for index in 0..<rows {
      text +=
        "2026-\(String(format: "%02d", index % 12 + 1))-\(String(format: "%02d", index % 28 + 1)),-\(index % 500 + 1).\(String(format: "%02d", index % 100)),Shop \(index)\n"
    }
    let result = try cli.run(["import", try cli.file("big.csv", text)])
    #expect(result.code == 0, "\(result.stderr)")
  }

  /// Starts `expenses ARGUMENTS`, kills it with SIGKILL after `delay` seconds (if it is still
  /// running) and returns whether it had finished by itself with exit 0.
  static func runKilled(_ arguments: [String], after delay: Double) throws -> Bool {
    let process = Process()
    process.executableURL = CLI.binary
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    Thread.sleep(forTimeInterval: delay)
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return process.terminationReason == .exit && process.terminationStatus == 0
  }

  @Test func aKilledCopyIntoPostgresLeavesNoLedger() throws {
    let cli = try CLI()
    try Self.source(cli, rows: 60_000)
    let url = try PostgresServer.shared().makeDatabase()
    // The schema first, so every kill below falls inside the copy itself.
    #expect(try cli.run(["ledger", "create", "warm", "--db", url], useDatabase: false).code == 0)
    var killed = 0
    for (index, delay) in [0.15, 0.3, 0.5, 0.8, 1.2, 1.8].enumerated() {
      let ledger = "kill\(index)"
      let finished = try Self.runKilled(["copy", "--from", cli.db, "--to", url, "--ledger", ledger], after: delay)
      let listed = try cli.run(["ledger", "list", "--db", url], useDatabase: false)
      #expect(listed.code == 0, "\(listed.stderr)")
      if finished {
        let count = try cli.run(["list", "--format", "csv", "--db", url + "&ledger=" + ledger], useDatabase: false)
        #expect(count.stdout.unicodeScalars.filter { $0 == "\n" }.count == 60_001, "a finished copy is whole")
      } else {
        killed += 1
        #expect(!listed.stdout.contains(ledger), "killed after \(delay) s, \(ledger) stays: \(listed.stdout)")
      }
    }
    #expect(killed > 0, "at least one copy was killed before it finished")
  }

  @Test func whatAKilledCopyIntoAFileLeftIsRemovedByTheNextCopy() throws {
    let cli = try CLI()
    try Self.source(cli, rows: 60_000)
    let target = cli.directory.appendingPathComponent("back.sqlite").path
    func leftovers() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: cli.directory.path).filter { $0.hasPrefix(".back.sqlite.") }
    }
    var killed = false
    for delay in [0.1, 0.2, 0.4] where !killed {
      killed = !(try Self.runKilled(["copy", "--from", cli.db, "--to", target], after: delay))
      if !killed { try FileManager.default.removeItem(atPath: target) }
    }
    #expect(killed, "a copy was killed before it finished")
    #expect(!FileManager.default.fileExists(atPath: target), "a killed copy leaves no target")
    let copied = try cli.run(["copy", "--from", cli.db, "--to", target], useDatabase: false)
    #expect(copied.code == 0, "\(copied.stderr)")
    let left = try leftovers()
    #expect(left.isEmpty, "left beside the target: \(left)")
  }
}

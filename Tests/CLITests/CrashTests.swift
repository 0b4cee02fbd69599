import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SIGKILL at random points of a large import, of `imports remove` and of `rules apply`: after each kill SQLite's
/// integrity check passes, the rows stored before are identical, the killed command's work is
/// all there or not at all, and `expenses check` passes. Seeded kill points; the trial counts
/// are printed.
@Suite struct CrashTests {
  /// What a database holds, as another program reads it after the kill.
  struct State: Decodable, Equatable {
    var integrity: String
    /// Rows with `id <= base` (stored before the killed command): count and digest.
    var baseCount: Int
    var baseDigest: String
    /// Rows added by the killed import: count and a digest of (key, amount).
    var newCount: Int
    var newDigest: String
    /// Digest of every row's (key, category): the work of `rules apply`.
    var categoryDigest: String
  }

  static let inspect = """
    import hashlib, json, sqlite3, sys
    c = sqlite3.connect(sys.argv[1])
    base = int(sys.argv[2])
    def digest(sql):
        h, n = hashlib.sha256(), 0
        for row in c.execute(sql):
            h.update(repr(row).encode()); n += 1
        return n, h.hexdigest()
    integrity = c.execute('PRAGMA integrity_check').fetchone()[0]
    bc, bd = digest('SELECT key, id, date, amountMinor, currency, description, category, account, fileId, sourceLine '
                    'FROM expense WHERE id <= %d ORDER BY key' % base)
    nc, nd = digest('SELECT key, amountMinor FROM expense WHERE id > %d ORDER BY key' % base)
    _, cd = digest('SELECT key, category FROM expense ORDER BY key')
    print(json.dumps(dict(integrity=integrity, baseCount=bc, baseDigest=bd, newCount=nc, newDigest=nd,
                          categoryDigest=cd)))
    """

  func state(_ path: String, base: Int) throws -> State {
    let result = try Python.run(["-c", CrashTests.inspect, path, String(base)])
    #expect(result.code == 0, "\(result.output)")
    return try JSONDecoder().decode(State.self, from: Data(result.output.utf8))
  }

  /// Copies the database file (checkpointed, so no -wal) to a fresh trial path.
  func fresh(_ from: String, _ to: String) throws {
    for suffix in ["", "-wal", "-shm"] { unlink(to + suffix) }
    try FileManager.default.copyItem(atPath: from, toPath: to)
  }

  /// Runs `arguments` on `database`, SIGKILLs it after `delay` microseconds; true when the
  /// kill landed (the command had not finished).
  func kill(_ cli: CLI, _ arguments: [String], database: String, after delay: UInt32) throws -> Bool {
    let process = try cli.start(arguments, database: database)
    usleep(delay)
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal
  }

  func timed(_ body: () throws -> Void) rethrows -> UInt32 {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return UInt32((DispatchTime.now().uptimeNanoseconds - start) / 1_000)
  }

  @Test func sigkillLeavesAllOrNothing() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    let folder = cli.directory.path
    // The rows before: a small file of its own seed.
    let small = try Generated.file(rows: 1_000, seed: 7, in: cli.directory)
    let base = folder + "/base.sqlite"
    #expect(try cli.run(["import", small, "--db", base], useDatabase: false).code == 0)
    let before = try state(base, base: 1_000_000_000)
    let big = try Generated.file(rows: 100_000, in: cli.directory)
    // The uninterrupted import: what "all" looks like, and how long it takes.
    let full = folder + "/full.sqlite"
    try fresh(base, full)
    var completed = CLI.Result(stdout: "", stderr: "", code: -1)
    let importTime = try timed { completed = try cli.run(["import", big, "--db", full], useDatabase: false) }
    #expect(completed.code == 0, "\(completed.stderr)")
    let all = try state(full, base: before.baseCount)
    #expect(all.newCount > 90_000)

    var random = SeededRandom(state: 20_261_122)
    let trial = folder + "/trial.sqlite"
    /// Kills `arguments` `count` times on copies of `start`; after each: `check` passes, the
    /// earlier rows are identical and the big import's rows are all there or all gone.
    func trials(_ count: Int, from start: String, _ arguments: [String], lasting time: UInt32) throws -> Int {
      var landed = 0
      for _ in 0..<count {
        try fresh(start, trial)
        let delay = UInt32(random.int(0...Int(time)))
        if try kill(cli, arguments, database: trial, after: delay) { landed += 1 }
        let check = try cli.run(["check", "--db", trial], useDatabase: false)
        #expect(check.code == 0, "\(arguments) killed at \(delay) µs, then check: \(check.stdout)\(check.stderr)")
        let after = try state(trial, base: before.baseCount)
        #expect(after.integrity == "ok")
        #expect(after.baseCount == before.baseCount && after.baseDigest == before.baseDigest, "earlier rows identical")
        #expect(
          after.newCount == 0 || (after.newCount == all.newCount && after.newDigest == all.newDigest),
          "\(arguments): all or nothing, \(after.newCount) of \(all.newCount) rows after a kill at \(delay) µs")
      }
      return landed
    }
    let killedMidway = try trials(20, from: base, ["import", big], lasting: importTime)
    let finished = 20 - killedMidway

    // `imports remove` takes the big import's rows out again in one transaction.
    let imports = try #require(
      try JSONSerialization.jsonObject(
        with: Data(try cli.run(["imports", "--format", "json", "--db", full], useDatabase: false).stdout.utf8))
        as? [[String: Any]])
    let importID = try #require(imports.last?["id"] as? Int)
    let removed = folder + "/removed.sqlite"
    try fresh(full, removed)
    var removal = CLI.Result(stdout: "", stderr: "", code: -1)
    let removeTime = try timed {
      removal = try cli.run(["imports", "remove", String(importID), "--db", removed], useDatabase: false)
    }
    #expect(removal.code == 0, "\(removal.stderr)")
    #expect(try state(removed, base: before.baseCount).newCount == 0)
    let removalsKilled = try trials(8, from: full, ["imports", "remove", String(importID)], lasting: removeTime)

    // `rules apply` rewrites the category of most rows in one transaction. It re-sorts only rows
    // whose category came from a rule or is empty, so these are imported without the file's.
    let rules = folder + "/rules.sqlite"
    try fresh(base, rules)
    let uncategorized = try cli.run(["import", big, "--column", "Category=-", "--db", rules], useDatabase: false)
    #expect(uncategorized.code == 0, "\(uncategorized.stderr)")
    #expect(try cli.run(["rules", "add", "e", "Everything", "--db", rules], useDatabase: false).code == 0)
    let old = try state(rules, base: before.baseCount)
    let applied = folder + "/applied.sqlite"
    try fresh(rules, applied)
    var apply = CLI.Result(stdout: "", stderr: "", code: -1)
    let applyTime = try timed { apply = try cli.run(["rules", "apply", "--db", applied], useDatabase: false) }
    #expect(apply.code == 0, "\(apply.stderr)")
    let new = try state(applied, base: before.baseCount)
    #expect(new.categoryDigest != old.categoryDigest)
    var rulesKilled = 0
    for _ in 0..<8 {
      try fresh(rules, trial)
      let delay = UInt32(random.int(0...Int(applyTime)))
      if try kill(cli, ["rules", "apply"], database: trial, after: delay) { rulesKilled += 1 }
      let check = try cli.run(["check", "--db", trial], useDatabase: false)
      #expect(check.code == 0, "check after a kill at \(delay) µs: \(check.stdout)\(check.stderr)")
      let after = try state(trial, base: before.baseCount)
      #expect(after.integrity == "ok")
      #expect(
        after.categoryDigest == old.categoryDigest || after.categoryDigest == new.categoryDigest,
        "every row's category all old or all new")
    }
    print(
      """
      crash trials: import of \(all.newCount) rows SIGKILLed 20 times (\(killedMidway) mid-import, \(finished) after \
      it ended); imports remove 8 times (\(removalsKilled) mid-removal); rules apply 8 times (\(rulesKilled) \
      mid-rewrite); each followed by integrity, digest and check
      """)
  }
}

import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// No output path of any command replaces or writes into a database the program knows, with or
/// without `--force`: the main file, every registered ledger's file, and each one's `-wal`,
/// `-shm` and `-journal`, named directly, through a symbolic link or through a hard link, from
/// whichever ledger the command acts on. Each refusal is 73 and leaves every file as it was.
@Suite struct KnownDatabaseOutputTests {
  /// A main file with ledgers `fam` and `work`, each holding a row.
  static func threeLedgers() throws -> CLI {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "3", "Tea"]).code == 0)
    for ledger in ["fam", "work"] {
      #expect(try cli.run(["ledger", "create", ledger]).code == 0)
      #expect(try cli.run(["--ledger", ledger, "add", "2026-10-02", "4", "Bread"]).code == 0)
    }
    return cli
  }

  /// Every command with an output path, aimed at `target`, acting on `ledger`.
  static func commands(target: String, input: String) -> [[String]] {
    [
      ["backup", target, "--force"],
      ["backup", target],
      ["export", "--format", "ledger", "-o", target, "--force"],
      ["export", "--format", "beancount", "--output", target],
      ["import", input, "--skip-invalid", "--rejects", target, "--force"],
      ["import", input, "--skip-invalid", "--rejects", target, "--dry-run"],
    ]
  }

  static func snapshot(_ cli: CLI) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: cli.directory.path)
    while let name = enumerator?.nextObject() as? String {
      let path = cli.directory.appendingPathComponent(name).path
      var status = stat()
      guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
      // -shm changes under every reader, and a -wal's header under every opening for writing
      // (SQLite restarts the log after a checkpoint); what they hold is checked by reading the
      // ledgers afterwards. The database files and every other file must not change at all.
      if name.hasSuffix("-shm") || name.hasSuffix("-wal") { continue }
      files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
    }
    return files
  }

  @Test func noOutputReplacesAnyKnownDatabaseFromAnyLedger() throws {
    let cli = try Self.threeLedgers()
    let input = try cli.file("bank.csv", "Date,Amount,Description\n2026-10-05,-2.50,Coffee\nnot a date,-1,Bad\n")
    let main = cli.db
    let fam = cli.directory.appendingPathComponent("test.ledgers/fam.sqlite").path
    let work = cli.directory.appendingPathComponent("test.ledgers/work.sqlite").path
    var targets: [String] = []
    for database in [main, fam, work] {
      targets += [database, database + "-wal", database + "-shm", database + "-journal"]
    }
    let link = cli.directory.appendingPathComponent("link.sqlite").path
    let walLink = cli.directory.appendingPathComponent("link-wal").path
    let hard = cli.directory.appendingPathComponent("hard.sqlite").path
    #expect(symlink(main, link) == 0 && symlink(fam + "-wal", walLink) == 0 && Glibc.link(work, hard) == 0)
    targets += [link, walLink, hard]
    let before = try Self.snapshot(cli)
    let ledgersBefore = try cli.run(["ledger", "list"]).stdout
    for ledger in ["default", "fam", "work"] {
      for target in targets {
        for command in Self.commands(target: target, input: input) {
          let result = try cli.run(["--ledger", ledger] + command)
          #expect(result.code == 73, "\(ledger) \(command): \(result.code) \(result.stderr)")
          #expect(result.stderr.contains("refusing to write"), "\(ledger) \(command): \(result.stderr)")
        }
      }
      // `demo --keep` and `copy --to` make new files only: never a known database's side file.
      for target in [main + "-wal", fam + "-journal", walLink] {
        let demo = try cli.run(["demo", "--keep", target], useDatabase: false, environment: ["EXPENSES_DB": main])
        #expect(demo.code == 73, "demo --keep \(target): \(demo.stderr)")
        let copy = try cli.run(["copy", "--from", main, "--to", target], useDatabase: false)
        #expect(copy.code == 73, "copy --to \(target): \(copy.stderr)")
      }
    }
    let after = try Self.snapshot(cli)
    let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    #expect(changed.isEmpty, "changed: \(changed)")
    #expect(try cli.run(["ledger", "list"]).stdout == ledgersBefore, "every ledger is still registered")
    for ledger in ["default", "fam", "work"] {
      let listed = try cli.run(["--ledger", ledger, "list", "--format", "csv"])
      let lines = listed.stdout.unicodeScalars.filter { $0 == "\n" }.count
      #expect(listed.code == 0 && lines == 2, "\(ledger): \(listed.stdout)")
    }
  }

  @Test func aDryRunOrAPreviewOfAMissingDatabaseCreatesNothing() throws {
    let cli = try CLI()
    let input = try cli.file("bank.csv", "Date,Amount,Description\n2026-10-05,-2.50,Coffee\n")
    let home = cli.directory.appendingPathComponent("home").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    for flag in ["--dry-run", "--preview"] {
      let named = try cli.run(["import", input, flag])
      #expect(named.code == 0, "\(flag): \(named.stderr)")
      #expect(named.stdout.contains("Coffee") || named.stdout.contains("1 new"), "\(flag): \(named.stdout)")
      #expect(!FileManager.default.fileExists(atPath: cli.db), "\(flag) created \(cli.db)")
      // No --db and no $EXPENSES_DB: the default path stays untouched too.
      let unnamed = try cli.run(["import", input, flag], useDatabase: false, environment: ["HOME": home])
      #expect(unnamed.code == 0, "\(flag): \(unnamed.stderr)")
      let created = FileManager.default.enumerator(atPath: home)?.allObjects ?? []
      #expect(created.isEmpty, "\(flag) created \(created) under HOME")
    }
  }

  @Test func aRemovedImportsIdIsNeverGivenAgain() throws {
    let cli = try CLI()
    var ids: [String] = []
    for (name, day) in [("a.csv", "01"), ("b.csv", "02"), ("c.csv", "03"), ("d.csv", "04")] {
      let file = try cli.file(name, "Date,Amount,Description\n2026-10-\(day),-1.00,Row \(name)\n")
      let result = try cli.run(["import", file, "--format", "json"])
      #expect(result.code == 0, "\(result.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      ids.append("\(object?["importId"] ?? "none")")
      if name == "b.csv" { #expect(try cli.run(["imports", "remove", ids[1]]).code == 0) }
    }
    #expect(ids == ["1", "2", "3", "4"], "ids \(ids): a removed import's id is spent")
    let again = try cli.run(["imports", "remove", "2"])
    #expect(again.code == 64 && again.stderr.contains("2"), "import 2 is gone for good: \(again.stderr)")
  }
}

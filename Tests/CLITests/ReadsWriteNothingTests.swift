import Foundation
import Testing

/// Read commands against files that are not expenses databases: each is refused (65) and left
/// byte-for-byte as it was, with no `-wal` or `-shm` beside it.
@Suite struct ReadsWriteNothingTests {
  /// A file made by `sql` through python3's sqlite3 module (another program's file).
  func foreign(_ cli: CLI, _ name: String, _ sql: String) throws -> String {
    let path = cli.directory.appendingPathComponent(name).path
    try Python.sqlite(path, sql)
    for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    return path
  }

  /// Runs each read command on `path`: exit 65 with `message`, the file unchanged, no -wal/-shm.
  func expectRefused(_ cli: CLI, _ path: String, saying message: String) throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    for command in [["list"], ["report", "--today", "2026-10-20", "--width", "60"], ["budget", "list"]] {
      let result = try cli.run(command + ["--db", path], useDatabase: false)
      #expect(result.code == 65, "\(command) on \(path): \(result.code) \(result.stderr)")
      #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
      #expect(!result.stderr.contains("damaged"), "\(command): \(result.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(command): \(path) byte-for-byte")
      for suffix in ["-wal", "-shm", "-journal"] {
        #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(command) left \(path)\(suffix)")
      }
    }
  }

  @Test func aFileHoldingOnlyAViewIsNotClaimed() throws {
    let cli = try CLI()
    let path = try foreign(cli, "view.sqlite", "CREATE VIEW answer AS SELECT 42 AS value;")
    try expectRefused(cli, path, saying: "not an expenses database")
  }

  @Test func anEmptySQLiteFileIsNotClaimed() throws {
    let cli = try CLI()
    // A header and an empty schema: what a program leaves after creating and dropping a table.
    let path = try foreign(cli, "empty.sqlite", "CREATE TABLE t (x); DROP TABLE t;")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count > 0)
    try expectRefused(cli, path, saying: "not an expenses database")
  }

  @Test func aZeroByteFileStaysZeroBytes() throws {
    let cli = try CLI()
    let path = try cli.file("zero.sqlite", "")
    try expectRefused(cli, path, saying: "not an expenses database")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
  }

  @Test func aForeignWALFileGetsNoWALOrSHM() throws {
    let cli = try CLI()
    let path = try foreign(
      cli, "wal.sqlite", "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x');")
    try expectRefused(cli, path, saying: "not an expenses database")
  }

  @Test func aTextFileIsNotASQLiteDatabase() throws {
    let cli = try CLI()
    let path = try cli.file("notes.txt", String(repeating: "this is not sqlite\n", count: 20))
    try expectRefused(cli, path, saying: "is not a SQLite database")
    let add = try cli.run(["add", "2026-10-01", "3", "Tea", "--db", path], useDatabase: false)
    #expect(add.code == 65 && add.stderr.contains("is not a SQLite database"), "\(add.stderr)")
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("this is not sqlite"))
  }
}

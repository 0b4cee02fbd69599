import Foundation
import Testing

/// Bad bytes through the built binary: the exit code and stderr of a refused row, the
/// `--replace-invalid` flag (saved in a profile), and NUL padding at the end of a file.
@Suite struct InvalidBytesCLITests {
  static func damaged(day: Int) -> [UInt8] {
    Array("Date,Description,Amount\n2026-10-0\(day),Café Central,-3.50\n2026-10-0\(day),Caf".utf8) + [0xC3, 0xA9, 0xE4]
      + Array(",-4.20\n2026-10-0\(day),Tea,-2.00\n".utf8)
  }

  func write(_ cli: CLI, _ name: String, _ bytes: [UInt8]) throws -> String {
    let path = cli.directory.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aDamagedRowStopsTheImportOrIsKeptWhenAsked() throws {
    let cli = try CLI()
    let file = try write(cli, "bank.csv", Self.damaged(day: 1))
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    let before = try cli.databaseBytes()
    let refused = try cli.run(["import", file])
    #expect(refused.code == 65)
    #expect(
      refused.stderr.contains("bank.csv:3:2: invalid UTF-8 at byte 6 of the field (0xE4) (column \"Description\")"),
      "\(refused.stderr)")
    #expect(refused.stderr.contains("hint: the rest of the file is UTF-8: fix the row, or --replace-invalid keeps it"))
    #expect(try cli.databaseBytes() == before, "all or nothing")
    let skipped = try cli.run(["import", file, "--skip-invalid", "--dry-run", "--width", "200"])
    #expect(
      skipped.code == 0 && skipped.stdout.contains("2 new, 0 duplicates, 0 excluded, 1 rejected"), "\(skipped.stdout)")

    let kept = try cli.run(["import", file, "--replace-invalid", "--save-profile", "mybank", "--width", "200"])
    #expect(kept.code == 0, "\(kept.stderr)")
    #expect(
      kept.stderr.contains(
        "warning: line 3, column 2: invalid UTF-8 at byte 6 of the field (0xE4) replaced with U+FFFD"),
      "\(kept.stderr)")
    #expect(kept.stdout.contains("Encoding: utf-8 (UTF-8 with invalid bytes, first on line 3)"), "\(kept.stdout)")
    // The saved profile keeps the choice: a second file is repaired without the flag.
    let second = try write(cli, "bank2.csv", Self.damaged(day: 2))
    let again = try cli.run(["import", second, "--profile", "mybank"])
    #expect(again.code == 0, "\(again.stderr)")
    let rows = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(rows.filter { $0["description"] as? String == "Café\u{FFFD}" }.count == 2)
  }

  @Test func nulPaddingAtTheEndIsIgnoredWithAWarning() throws {
    let cli = try CLI()
    let bytes = Array("Date,Description,Amount\n2026-10-01,Tea,-2.00\n".utf8) + [UInt8](repeating: 0, count: 467)
    let result = try cli.run(["import", try write(cli, "padded.csv", bytes), "--width", "200"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.contains("warning: the file ends with 467 NUL bytes (padding): ignored"), "\(result.stderr)")
    #expect(result.stdout.contains("1 new"))
  }
}

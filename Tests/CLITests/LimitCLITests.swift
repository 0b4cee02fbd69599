import Foundation
import Testing

/// Long fields at the command line: a bad row with file:line:column and a shortened value, the
/// database unchanged; `--skip-invalid` imports the rest.
@Suite struct LimitCLITests {
  @Test func aTooLongFieldIsABadRow() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try cli.run(["add", "2026-10-01", "1", "Before"]).code == 0)
    let before = try cli.databaseBytes()
    let long = String(repeating: "memo ", count: 14_000)
    let path = try cli.file(
      "bank.csv",
      "Date,Description,Amount\n2026-10-02,Fine,-1.00\n2026-10-03,\"\(long)\",-2.00\n2026-10-04,Also fine,-3.00\n")
    let refused = try cli.run(["import", path])
    #expect(refused.code == 65)
    #expect(refused.stderr.contains("bank.csv:3:2"), "\(refused.stderr)")
    #expect(refused.stderr.contains("70000 bytes") && refused.stderr.contains("64 KiB"))
    #expect(refused.stderr.count < 1_000, "the value is shortened")
    #expect(try cli.databaseBytes() == before, "nothing written")
    let skipped = try cli.run(["import", path, "--skip-invalid"])
    #expect(skipped.code == 0, "\(skipped.stderr)")
    #expect(skipped.stdout.contains("2 new") && skipped.stdout.contains("1 rejected"))
  }
}

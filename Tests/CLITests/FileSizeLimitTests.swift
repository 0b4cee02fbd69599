import Foundation
import Testing

/// An import that passes the shell's file-size limit (`ulimit -f`) says so, naming the limit
/// and how to raise it, instead of SQLite's bare "disk I/O error", and leaves the database as
/// it was.
@Suite struct FileSizeLimitTests {
  @Test func anImportPastTheFileSizeLimitSaysSo() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    var text = "Date,Amount,Description\n"
    for index in 0..<60_000 {
      let day = String(format: "2026-%02d-%02d", index % 12 + 1, index % 28 + 1)
      text += "\(day),-\(index % 500 + 1).\(index % 90 + 10),Shop number \(index) in town\n"
    }
    let big = try cli.file("big.csv", text)
    let result = try CLI.runProcess(
      URL(fileURLWithPath: "/bin/bash"),
      ["-c", "ulimit -f 1000 && exec \"$0\" import \"$1\" --db \"$2\"", CLI.binary.path, big, cli.db],
      environment: ["PATH": "/usr/bin:/bin", "HOME": cli.directory.path, "LANG": "C.UTF-8"])
    #expect(result.code == 74, "\(result.stderr)")
    #expect(result.stderr.contains("file-size limit (ulimit -f: 1024000 bytes)"), "\(result.stderr)")
    #expect(result.stderr.contains("ulimit -f unlimited"))
    let listed = try cli.run(["list", "--format", "csv"])
    #expect(listed.stdout.contains("existing") && !listed.stdout.contains("Shop number"), "nothing of it was stored")
  }
}

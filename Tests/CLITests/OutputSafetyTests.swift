import Foundation
import Testing

/// Nothing from a file reaches the terminal raw in any output format, and JSON still carries
/// the exact stored text (escaped, not altered).
@Suite struct OutputSafetyTests {
  /// No NUL: a command-line argument cannot hold one (the import tests cover NUL in a file).
  static let hostile = "Evil\u{1B}[31m\u{07}\u{9B}2J\u{202E}gpj.exe\u{2028}x"

  static func isRaw(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (v < 0x20 && v != 0x0A && v != 0x0D) || (0x7F..<0xA0).contains(v) || (0x202A...0x202E).contains(v)
      || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
  }

  @Test func everyFormatMakesControlsVisible() throws {
    let cli = try CLI()
    let csv = "Date,Description,Amount,Category\n2026-10-01,\"\(Self.hostile)\u{0}\",-1.00,\"\(Self.hostile)\"\n"
    let path = cli.directory.appendingPathComponent("evil.csv").path
    try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
    let imported = try cli.run(["import", path, "--skip-invalid"])
    #expect(imported.code == 0 || imported.code == 65, "\(imported.stderr)")
    #expect(try cli.run(["add", "2026-10-02", "2", Self.hostile, "--category", Self.hostile]).code == 0)
    try cli.run(["budget", "set", Self.hostile, "100"])
    var outputs: [[String]: String] = [:]
    for format in ["text", "json", "csv", "md", "html"] {
      let arguments = ["report", "--month", "2026-10", "--today", "2026-10-20", "--format", format, "--expand", "all"]
      let result = try cli.run(arguments)
      #expect(result.code == 0, "\(format): \(result.stderr)")
      outputs[arguments] = result.stdout
    }
    for arguments in [
      ["list"], ["list", "--format", "json"], ["categories"], ["categories", "--format", "json"],
      ["budget", "list"], ["budget", "list", "--format", "json"],
    ] {
      let result = try cli.run(arguments)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      outputs[arguments] = result.stdout
    }
    for (arguments, output) in outputs {
      let raw = output.unicodeScalars.filter(Self.isRaw)
      #expect(raw.isEmpty, "\(arguments) printed raw \(raw.map { String($0.value, radix: 16) })")
      #expect(output.contains("Evil"), "\(arguments) keeps the text")
    }
    let listed = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(listed.contains { $0["description"] as? String == Self.hostile }, "JSON carries the exact stored text")
  }
}

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
      || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029 || bidiControls.contains(v)
  }

  /// Unicode's Bidi_Control property (PropList.txt), every code point of it.
  static let bidiControls: [UInt32] = [
    0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
  ]

  /// Each bidirectional control, imported in a description and a category, reaches neither the
  /// text report nor `list` raw: it is shown as `<U+XXXX>` instead.
  @Test(arguments: bidiControls)
  func bidiControlsAreVisibleInTheReportAndList(_ code: UInt32) throws {
    let cli = try CLI()
    let mark = String(Character(try #require(Unicode.Scalar(code))))
    let shown = "<U+\(String(code, radix: 16, uppercase: true))>"
    let csv = "Date,Description,Amount,Category\n2026-10-01,Shop\(mark)123,-1.00,Food\(mark)x\n"
    let path = cli.directory.appendingPathComponent("bidi.csv").path
    try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
    let imported = try cli.run(["import", path])
    #expect(imported.code == 0, "\(imported.stderr)")
    for arguments in [
      ["report", "--month", "2026-10", "--today", "2026-10-20", "--expand", "all", "--width", "100"],
      ["list"], ["list", "--width", "30"],
    ] {
      let result = try cli.run(arguments)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      let raw = result.stdout.unicodeScalars.filter(Self.isRaw)
      #expect(raw.isEmpty, "\(arguments) printed raw \(raw.map { String($0.value, radix: 16) })")
      if arguments != ["list", "--width", "30"] {  // the narrowest list has no room for the category
        #expect(result.stdout.contains("Food" + shown), "\(arguments) shows the category's mark: \(result.stdout)")
      }
      if arguments[0] == "list" {
        #expect(result.stdout.contains("Shop" + shown), "\(arguments) shows the description's mark")
      }
    }
    let listed = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    #expect(listed.first?["description"] as? String == "Shop\(mark)123", "the stored text is exact")
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

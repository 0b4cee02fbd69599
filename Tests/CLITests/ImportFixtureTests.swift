import Foundation
import Testing

/// Every bank-style fixture in Fixtures/import, imported by the built binary and read back with
/// `list --format json`, against the hand-written `NAME.expected.json` beside it.
@Suite struct ImportFixtureTests {
  static let directory = CLI.root.appendingPathComponent("Fixtures/import")

  static func names(bad: Bool) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".expected.json") && $0.hasPrefix("bad_") == bad && !$0.hasPrefix("refuse_") }
      .map { String($0.dropLast(".expected.json".count)) }.sorted()
  }

  static func json(_ path: URL) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any] ?? [:]
  }

  /// `NAME.options.json` as command-line flags: `{"currency": "EUR"}` → `--currency EUR`.
  static func flags(_ name: String) throws -> [String] {
    let path = directory.appendingPathComponent(name + ".options.json")
    guard FileManager.default.fileExists(atPath: path.path) else { return [] }
    var flags: [String] = []
    for (key, value) in try json(path).sorted(by: { $0.key < $1.key }) {
      let flag = "--" + key.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
      if let list = value as? [String] {
        flags += [flag, list.joined(separator: ",")]
      } else {
        flags += [flag, "\(value)"]
      }
    }
    return flags
  }

  @Test func fixturesExistForEveryStyle() {
    #expect(Self.names(bad: false).count >= 30, "the export styles the import issue asks for")
    #expect(Self.names(bad: true).count >= 6)
  }

  static let refused: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasPrefix("refuse_") && $0.hasSuffix(".expected.json") }
      .map { String($0.dropLast(".expected.json".count)) }.sorted()
  }()

  /// Weak evidence (which sign is spending, which currency) stops the import with 65 before
  /// anything is written, and the message names the flag that settles it.
  @Test(arguments: refused)
  func weakEvidenceStopsBeforeWriting(_ name: String) throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    let before = try cli.databaseBytes()
    let expected = try Self.json(Self.directory.appendingPathComponent(name + ".expected.json"))
    let file = Self.directory.appendingPathComponent(name + ".csv").path
    let result = try cli.run(["import", file])
    #expect(result.code == 65, "\(name): \(result.stderr)")
    for flag in expected["refused"] as? [String] ?? [] {
      #expect(result.stderr.contains(flag), "\(name) names \(flag): \(result.stderr)")
    }
    #expect(try cli.databaseBytes() == before, "\(name): nothing written")
  }

  @Test(arguments: names(bad: false))
  func importsAsExpected(_ name: String) throws {
    let cli = try CLI()
    let expected = try Self.json(Self.directory.appendingPathComponent(name + ".expected.json"))
    let file = Self.directory.appendingPathComponent(name + ".csv").path
    let result = try cli.run(["import", file, "--format", "json"] + Self.flags(name))
    #expect(result.code == 0, "\(name): \(result.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let expectedRows = try #require(expected["rows"] as? [[String: Any]])
    #expect(summary["new"] as? Int == expectedRows.count, "\(name)")
    #expect(summary["excluded"] as? Int == (expected["excluded"] as? [Int] ?? []).count, "\(name)")

    let listed = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    let byLine = Dictionary(
      uniqueKeysWithValues: listed.map { (($0["source"] as? [String: Any])?["line"] as? Int ?? -1, $0) })
    for row in expectedRows {
      let line = try #require(row["line"] as? Int)
      let got = try #require(byLine[line], "\(name): no row from line \(line)")
      #expect(got["date"] as? String == row["date"] as? String, "\(name):\(line) date")
      #expect(got["amountMinor"] as? Int == row["amountMinor"] as? Int, "\(name):\(line) amount")
      #expect(got["currency"] as? String == row["currency"] as? String, "\(name):\(line) currency")
      #expect(got["description"] as? String == row["description"] as? String, "\(name):\(line) description")
    }
    var totals: [String: Int] = [:]
    for row in listed { totals[row["currency"] as! String, default: 0] += row["amountMinor"] as! Int }
    #expect(totals == (expected["totals"] as? [String: Int] ?? [:]), "\(name) totals per currency")

    let again = try cli.run(["import", file, "--format", "json"] + Self.flags(name))
    let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
    #expect(second["new"] as? Int == 0, "\(name): re-import adds nothing")
    #expect(second["duplicates"] as? Int == expectedRows.count)
  }

  @Test(arguments: names(bad: true))
  func badFileStopsWithItsLineAndChangesNothing(_ name: String) throws {
    let cli = try CLI()
    let expected = try Self.json(Self.directory.appendingPathComponent(name + ".expected.json"))
    let error = try #require(expected["error"] as? [String: Any])
    let line = try #require(error["line"] as? Int)
    try cli.run(["add", "2026-01-01", "1", "existing row"])
    let before = try cli.databaseBytes()
    let file = Self.directory.appendingPathComponent(name + ".csv").path
    let result = try cli.run(["import", file] + Self.flags(name))
    #expect(result.code == 65, "\(name): \(result.stderr)")
    var location = "\(name).csv:\(line)"
    if let column = error["column"] as? Int { location += ":\(column)" }
    #expect(result.stderr.contains(location), "\(name): expected \(location) in \(result.stderr)")
    #expect(result.stderr.contains("hint:"), "\(name): the error carries a hint")
    #expect(try cli.databaseBytes() == before, "\(name): database byte-for-byte unchanged")

    // --skip-invalid keeps the good rows and writes the bad ones to --rejects.
    let rejects = cli.directory.appendingPathComponent("rejects.csv").path
    let skipping = try cli.run(
      ["import", file, "--skip-invalid", "--rejects", rejects, "--format", "json"] + Self.flags(name))
    #expect(skipping.code == 0, "\(name): \(skipping.stderr)")
    let listed = try #require(try cli.json(["list", "--format", "json"]) as? [[String: Any]])
    let lines = Set(listed.compactMap { ($0["source"] as? [String: Any])?["line"] as? Int })
    #expect(lines == Set(expected["rowsWhenSkipping"] as? [Int] ?? []), "\(name): rows kept")
    let rejected = try String(contentsOfFile: rejects, encoding: .utf8)
    #expect(rejected.hasPrefix("line,column,value,message,hint"))
    #expect(rejected.contains("\n\(line),"), "\(name): rejects name line \(line)")
  }
}

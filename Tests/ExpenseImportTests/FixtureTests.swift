import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Runs the importer over every file in Fixtures/import and compares with the hand-written
/// `NAME.expected.json` (options from `NAME.options.json`, default currency USD).
@Suite struct FixtureTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/import")

  static let names: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()
  }()

  static func json(_ name: String, _ suffix: String) -> [String: Any]? {
    let url = directory.appendingPathComponent(name + suffix)
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  }

  static func options(_ name: String) throws -> ImportOptions {
    let url = directory.appendingPathComponent(name + ".options.json")
    guard let data = try? Data(contentsOf: url) else { return ImportOptions() }
    return try JSONDecoder().decode(ImportOptions.self, from: data)
  }

  struct Collected {
    var rows: [ImportedRow] = []
    var excluded: [Int] = []
    var rejected: [ImportIssue] = []
    var warnings: [String] = []
  }

  static func collect(_ path: String, _ options: ImportOptions, skipInvalid: Bool) throws -> Collected {
    let importer = try CSVImporter(path: path, options: options, defaultCurrency: .usd)
    var out = Collected()
    try importer.run(skipInvalid: skipInvalid, progress: nil) { event in
      switch event {
      case .row(let row): out.rows.append(row)
      case .excluded(let line, _): out.excluded.append(line)
      case .rejected(let issue): out.rejected.append(issue)
      case .warning(let text): out.warnings.append(text)
      case .balance, .stored: break  // no stored keys were given
      }
    }
    return out
  }

  @Test func everyStyleHasAFixture() {
    #expect(FixtureTests.names.count >= 19)
  }

  @Test(arguments: FixtureTests.names.filter { !$0.hasPrefix("bad_") && !$0.hasPrefix("refuse_") })
  func goodFixture(_ name: String) throws {
    let expected = try #require(FixtureTests.json(name, ".expected.json"))
    let path = FixtureTests.directory.appendingPathComponent(name + ".csv").path
    let got = try FixtureTests.collect(path, FixtureTests.options(name), skipInvalid: false)
    let rows = expected["rows"] as! [[String: Any]]
    #expect(got.rows.count == rows.count, "\(name): row count")
    for (row, want) in zip(got.rows, rows) {
      #expect(row.line == want["line"] as! Int, "\(name) line")
      #expect(row.date.description == want["date"] as! String, "\(name):\(row.line) date")
      #expect(row.amount.minor == Int64(want["amountMinor"] as! Int), "\(name):\(row.line) amount")
      #expect(row.amount.currency.code == want["currency"] as! String, "\(name):\(row.line) currency")
      #expect(row.description == want["description"] as! String, "\(name):\(row.line) description")
      if let category = want["category"] {
        #expect(row.category == (category as? String), "\(name):\(row.line) category")
      }
      #expect(row.fingerprint.count == 16)
    }
    var totals: [String: Int64] = [:]
    for row in got.rows { totals[row.amount.currency.code, default: 0] += row.amount.minor }
    let wantTotals = (expected["totals"] as! [String: Int]).mapValues(Int64.init)
    #expect(totals == wantTotals, "\(name): totals")
    #expect(got.excluded == (expected["excluded"] as? [Int] ?? []), "\(name): excluded lines")
    #expect(Set(got.rows.map(\.fingerprint)).count == got.rows.count, "\(name): fingerprints unique")
  }

  @Test(arguments: FixtureTests.names.filter { $0.hasPrefix("bad_") })
  func malformedFixture(_ name: String) throws {
    let expected = try #require(FixtureTests.json(name, ".expected.json"))
    let error = expected["error"] as! [String: Any]
    let path = FixtureTests.directory.appendingPathComponent(name + ".csv").path
    let options = try FixtureTests.options(name)
    do {
      _ = try FixtureTests.collect(path, options, skipInvalid: false)
      Issue.record("\(name): expected an error")
    } catch let failure as ImportError {
      let issue = try #require(failure.issue, "\(name): \(failure)")
      #expect(issue.kind.rawValue == error["kind"] as! String)
      #expect(issue.line == error["line"] as! Int)
      #expect(issue.column == error["column"] as? Int)
      #expect(issue.file == path)
      #expect(failure.description.hasPrefix("\(path):\(issue.line)"))
      #expect(failure.description.contains("\n  value: \""))
      #expect(failure.description.contains("\n  hint: "))
    }
    let skipping = try FixtureTests.collect(path, options, skipInvalid: true)
    #expect(skipping.rows.map(\.line) == expected["rowsWhenSkipping"] as! [Int], "\(name): rows when skipping")
    #expect(skipping.rejected.count == 1, "\(name): one rejected row")
  }

  /// A file whose evidence is weak (which sign is spending, which currency): detection stops
  /// before anything is read as rows and names the flag; with the flags it imports.
  @Test(arguments: FixtureTests.names.filter { $0.hasPrefix("refuse_") })
  func refusedFixture(_ name: String) throws {
    let expected = try #require(FixtureTests.json(name, ".expected.json"))
    let path = FixtureTests.directory.appendingPathComponent(name + ".csv").path
    do {
      let got = try FixtureTests.collect(path, FixtureTests.options(name), skipInvalid: true)
      Issue.record("\(name): expected a refusal, got \(got.rows.count) rows")
    } catch let failure as ImportError {
      guard case .undetectable(let file, _, let hint) = failure else {
        Issue.record("\(name): expected a refusal, got \(failure)")
        return
      }
      #expect(file == path)
      for flag in expected["refused"] as! [String] { #expect(hint.contains(flag), "\(name): \(hint)") }
    }
    let settled = try JSONSerialization.data(withJSONObject: expected["options"] as! [String: Any])
    let got = try FixtureTests.collect(
      path, JSONDecoder().decode(ImportOptions.self, from: settled), skipInvalid: false)
    #expect(got.rows.map(\.line) == expected["rows"] as! [Int], "\(name): rows with the flags")
    var totals: [String: Int64] = [:]
    for row in got.rows { totals[row.amount.currency.code, default: 0] += row.amount.minor }
    #expect(totals == (expected["totals"] as! [String: Int]).mapValues(Int64.init), "\(name): totals")
  }
}

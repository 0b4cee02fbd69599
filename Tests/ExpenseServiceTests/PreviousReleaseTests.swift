import ExpenseCore
import ExpenseImport
import ExpenseSQLite
import ExpenseStore
import Foundation
import Testing

@testable import ExpenseService

/// Nothing already imported comes in twice: every fixture the build before imported, imported
/// again by this build into a ledger holding what the build before stored, adds no row.
///
/// The oracle is `Fixtures/previous-release/keys.json`: the keys (the identity a re-import
/// compares) of the rows the release users have stored for each fixture, recorded by running
/// that build (`Tools/previous-release/record.py BINARY REVISION`). Reading a description, a
/// date, an account or a sign differently changes what identifies a row; this test fails when
/// such a change would store a file's rows a second time.
@Suite struct PreviousReleaseTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  struct Recorded: Decodable {
    struct Fixture: Decodable {
      var options: ImportOptions
      var keys: [Int64]
    }
    var revision: String
    var fixtures: [String: Fixture]
  }

  static let recorded: Recorded? = try? JSONDecoder().decode(
    Recorded.self, from: Data(contentsOf: fixtures.appendingPathComponent("previous-release/keys.json")))

  static var names: [String] { (recorded?.fixtures.keys).map { $0.sorted() } ?? [] }

  @Test func theRecordCoversTheFixtures() throws {
    let recorded = try #require(Self.recorded, "Fixtures/previous-release/keys.json reads")
    #expect(recorded.fixtures.count >= 60, "every import and statement fixture the build before read")
    #expect(recorded.fixtures.values.allSatisfy { !$0.keys.isEmpty })
  }

  @Test(arguments: names)
  func reimportingAddsNothing(_ name: String) throws {
    let fixture = try #require(Self.recorded?.fixtures[name])
    let store = try AppDatabase()
    // What the build before stored: rows under its keys (the day and hash bits of each).
    try store.importRows(sourceFile: "before", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      for (index, key) in fixture.keys.enumerated() {
        let stored = ExpenseKey(rawValue: key)
        let row = ImportedRow(
          line: index + 1, date: stored.date, amount: Money(minor: -1, currency: .usd), description: "before",
          category: nil, account: nil, fingerprintHash: UInt64(key & ExpenseKey.hashMask))
        try #require(row.key == key)
        if let batch = try batcher.add(row) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
    }
    var request = ImportRequest(path: Self.fixtures.appendingPathComponent(name).path, options: fixture.options)
    request.detailLimit = 0
    let summary = try ImportService(store: store).run(request)
    #expect(summary.new == 0, "\(name): \(summary.new) rows the build before stored come in again")
    #expect(summary.duplicates == fixture.keys.count, "\(name)")
  }
}

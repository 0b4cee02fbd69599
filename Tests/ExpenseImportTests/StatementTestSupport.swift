import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// What the statement readers' tests share: the fixture folder, a reader run to the end, and
/// the fuzz loop over damaged fixtures.
enum StatementTesting {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/statements")

  static func fixture(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
  }

  /// Fixtures with random bytes (from `alphabet`) changed, inserted or removed, read in random
  /// chunks: the reader ends with events or an `ImportError`, never a crash or another error.
  static func readsMutatedFixturesCleanly<R: StatementReader>(
    _ type: R.Type, _ fixtures: [[UInt8]], alphabet: [UInt8]
  ) {
    var random = SeededRandom(state: fuzzSeed)
    for _ in 0..<(fuzzCount * 2) {
      let bytes = DocumentOracle.mutated(
        fixtures[random.int(0...(fixtures.count - 1))], alphabet: alphabet, random: &random, most: 8)
      let result = run(type, bytes, chunk: random.int(1...64))
      if let error = result.error, case .io = error { Issue.record("not an ImportError: \(error)") }
      for entry in entries(result.events) { #expect(entry.date.isSupported && entry.line >= 1) }
    }
  }

  /// Every event and the settings, or the error the reader threw. A rejected entry stops the
  /// run as it stops an import, unless `skipInvalid` (then it is one of the events).
  static func run<R: StatementReader>(
    _ type: R.Type, _ bytes: [UInt8], file: String = "statement", options: ImportOptions = ImportOptions(),
    defaultCurrency: Currency = .usd, chunk: Int? = nil, skipInvalid: Bool = false
  ) -> (events: [StatementEvent], settings: [StatementSetting], error: ImportError?) {
    var reader = R(file: file, options: options, defaultCurrency: defaultCurrency)
    var events: [StatementEvent] = []
    let source: any ByteSource = chunk.map { ChunkSource(bytes, chunk: $0) } ?? MemorySource(bytes)
    do {
      try reader.read(source) { event in
        if !skipInvalid, case .rejected(let issue) = event { throw ImportError.row(issue) }
        events.append(event)
      }
      return (events, reader.settings, nil)
    } catch let error as ImportError {
      return (events, reader.settings, error)
    } catch {
      return (events, reader.settings, .io(path: file, message: "unexpected error: \(error)"))
    }
  }

  static func entries(_ events: [StatementEvent]) -> [StatementEntry] {
    events.compactMap {
      if case .entry(let entry) = $0 { return entry }
      return nil
    }
  }

  static func entry(
    _ line: Int, _ date: String, _ minor: Int64, _ code: String, _ description: String, category: String? = nil,
    account: String? = nil, named: String? = nil, id: String? = nil, transfer: Bool = false, split: Int? = nil
  ) throws -> StatementEntry {
    guard let currency = Currency(code: code) else { throw ImportError.invalidOption(option: "code", message: code) }
    var entry = StatementEntry(
      line: line, date: try CivilDate.parse(date), amount: Money(minor: minor, currency: currency),
      description: description, category: category, account: account, transactionID: id, isTransfer: transfer,
      splitGroup: split)
    entry.accountName = named
    return entry
  }
}

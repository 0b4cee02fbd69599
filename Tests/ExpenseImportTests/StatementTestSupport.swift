import ExpenseCore
import Foundation

@testable import ExpenseImport

/// What the statement readers' tests share: the fixture folder, a reader run to the end, and
/// a source that hands out a few bytes at a time.
enum StatementTesting {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/statements")

  static func fixture(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
  }

  /// Every event and the settings, or the error the reader threw.
  static func run<R: StatementReader>(
    _ type: R.Type, _ bytes: [UInt8], file: String = "statement", options: ImportOptions = ImportOptions(),
    defaultCurrency: Currency = .usd, chunk: Int? = nil
  ) -> (events: [StatementEvent], settings: [StatementSetting], error: ImportError?) {
    var reader = R(file: file, options: options, defaultCurrency: defaultCurrency)
    var events: [StatementEvent] = []
    let source: any ByteSource = chunk.map { TrickleSource(bytes, chunk: $0) } ?? MemorySource(bytes)
    do {
      try reader.read(source) { events.append($0) }
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
    account: String? = nil, id: String? = nil, transfer: Bool = false, split: Int? = nil
  ) throws -> StatementEntry {
    guard let currency = Currency(code: code) else { throw ImportError.invalidOption(option: "code", message: code) }
    return StatementEntry(
      line: line, date: try CivilDate.parse(date), amount: Money(minor: minor, currency: currency),
      description: description, category: category, account: account, transactionID: id, isTransfer: transfer,
      splitGroup: split)
  }
}

/// Hands out at most `chunk` bytes per read, so values, tags and line ends fall across the
/// readers' buffer refills.
final class TrickleSource: ByteSource {
  let bytes: [UInt8]
  let chunk: Int
  var offset = 0

  init(_ bytes: [UInt8], chunk: Int) {
    self.bytes = bytes
    self.chunk = chunk
  }

  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    let n = min(capacity, chunk, bytes.count - offset)
    if n <= 0 { return 0 }
    for i in 0..<n { buffer[i] = bytes[offset + i] }
    offset += n
    return n
  }
}

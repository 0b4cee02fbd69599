import ExpenseCore
import ExpenseImport
import ExpenseMemory
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// Rows the ledger held before an import are settled on the parse thread (`StoredKeys`, a
/// SQLite file's second connection) and handed over as `.stored`. The memory store asks no
/// stored keys: every row goes to its writer whole, so it is the oracle for what an import of
/// the same files must say.
@Suite struct StoredKeysImportTests {
  typealias Folder = ServiceTests.Folder

  /// A bank file of `rows` rows over about 90 days: identical rows on a day (told apart by
  /// their occurrence), non-ASCII descriptions, a balance column, and every seventh row with a
  /// NUL in its description (stored as a visible symbol, so its hash is not its bytes': such a
  /// row always goes to the writer whole). `keep` chooses the rows written.
  static func bankFile(rows: Int, keep: (Int) -> Bool = { _ in true }) -> String {
    var csv = "Date,Description,Amount,Category,Balance\n"
    let start = CivilDate(year: 2026, month: 1, day: 1)!
    var balance: Int64 = 1_000_000
    for n in 0..<rows {
      let day = start.adding(days: n / 60)
      let minor = -Int64(100 + (n * 37) % 5_000)
      balance += minor
      let description: String
      switch n % 7 {
      case 0: description = "POS \(n) CAF\u{0}E"
      case 1: description = "Café Zürich \(n % 5)"
      case 2: description = "Coffee"
      default: description = "SEPA-LASTSCHRIFT MREF \(n)"
      }
      let amount = Money(minor: minor, currency: .usd).decimalString
      let total = Money(minor: balance, currency: .usd).decimalString
      if keep(n) { csv += "\(day),\(description),\(amount),Dining,\(total)\n" }
    }
    return csv
  }

  /// The summary as JSON without its time.
  static func json(_ summary: ImportSummary) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var object = try #require(
      try JSONSerialization.jsonObject(with: encoder.encode(summary)) as? [String: Any])
    object["seconds"] = nil
    return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }

  /// Imports `files` in order into a new SQLite file and into a memory store: every summary,
  /// and the rows stored, must be the same.
  static func sameOnBoth(_ files: [(name: String, text: String)]) throws -> [ImportSummary] {
    let folder = try Folder()
    let sqlite = try AppDatabase(path: folder.database)
    let memory = MemoryStore()
    var summaries: [ImportSummary] = []
    for file in files {
      let path = try folder.file(file.name, file.text)
      let ours = try ImportService(store: sqlite).run(ImportRequest(path: path))
      let oracle = try ImportService(store: memory).run(ImportRequest(path: path))
      #expect(try json(ours) == json(oracle), "\(file.name)")
      summaries.append(ours)
    }
    let stored = try sqlite.expenses(from: nil, through: nil)
    let expected = try memory.expenses(from: nil, through: nil)
    #expect(stored.map(\.id) == expected.map(\.id))
    #expect(stored.map(\.description) == expected.map(\.description))
    #expect(stored.map(\.amount) == expected.map(\.amount))
    return summaries
  }

  @Test func aFileImportedAgainSaysWhatTheWriterWouldSay() throws {
    let file = Self.bankFile(rows: 5_000)
    let summaries = try Self.sameOnBoth([("bank.csv", file), ("bank.csv", file)])
    #expect(summaries[0].new == 5_000)
    #expect(summaries[1].new == 0)
    #expect(summaries[1].duplicates == 5_000)
    #expect(summaries[1].duplicateDetails.map(\.line) == Array(2...21))
    #expect(summaries[1].balances == summaries[0].balances)
  }

  @Test func anOverlappingExportAddsOnlyItsNewRows() throws {
    // Two rows of three stored first: stored rows and new ones alternate in every batch, and
    // the rows with a NUL come to the writer as duplicates between the stored ones.
    let part = Self.bankFile(rows: 3_000) { $0 % 3 != 2 }
    let whole = Self.bankFile(rows: 3_000)
    let summaries = try Self.sameOnBoth([("part.csv", part), ("whole.csv", whole)])
    #expect(summaries[1].new == 1_000)
    #expect(summaries[1].duplicates == 2_000)
    #expect(summaries[1].duplicateDetails.count == 20)
    #expect(summaries[1].duplicateDetails.map(\.line) == summaries[1].duplicateDetails.map(\.line).sorted())
  }

  @Test func aFileWhoseDatesJumpAboutIsStillRight() throws {
    // Each row on a day far from the one before: the stored keys are read a window at a time,
    // and given up once windows are read over and over; the writer checks every row then.
    var csv = "Date,Description,Amount\n"
    let start = CivilDate(year: 2020, month: 1, day: 1)!
    for n in 0..<3_000 {
      csv += "\(start.adding(days: (n * 997) % 2_000)),Shop \(n),-1.00\n"
    }
    let summaries = try Self.sameOnBoth([("jumps.csv", csv), ("jumps.csv", csv)])
    #expect(summaries[1].duplicates == 3_000)
  }

  @Test func aStoredRowWithAnUnreadableCategoryIsStillRefused() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    let good = try folder.file("good.csv", "Date,Description,Amount,Category\n2026-10-01,Coffee,-4.50,Dining\n")
    _ = try ImportService(store: db).run(ImportRequest(path: good))
    // The same row, its category cell not UTF-8 in a file read as strict UTF-8.
    let path = folder.url.appendingPathComponent("bad.csv").path
    let bytes = Array("Date,Description,Amount,Category\n2026-10-01,Coffee,-4.50,Din".utf8) + [0xFF, 0xFE, 0x0A]
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    var request = ImportRequest(path: path)
    request.options.encoding = .utf8
    let memory = MemoryStore()
    _ = try ImportService(store: memory).run(ImportRequest(path: good))
    #expect(throws: (any Error).self) { _ = try ImportService(store: memory).run(request) }
    #expect(throws: (any Error).self) { _ = try ImportService(store: db).run(request) }
  }
}

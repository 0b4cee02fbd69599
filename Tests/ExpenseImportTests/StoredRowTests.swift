import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// A reader given the ledger's stored keys (`CSVImporter.storedKeys`) hands over the rows
/// among them as `.stored`: with the same key, line and day as the row it would have made,
/// and only where the row's hash is final before its text is made.
@Suite struct StoredRowTests {
  /// Answers yes for the keys it was given (every key when `all`), and counts the questions.
  final class Keys: StoredKeys {
    let keys: Set<Int64>
    let all: Bool
    var asked = 0
    init(_ keys: Set<Int64> = [], all: Bool = false) {
      self.keys = keys
      self.all = all
    }
    func contains(_ key: Int64) -> Bool {
      asked += 1
      return all || keys.contains(key)
    }
  }

  /// Every event's kind with its line and key: rows and stored rows alike.
  static func read(_ path: String, _ keys: Keys?, _ options: ImportOptions = ImportOptions()) throws -> [(
    stored: Bool, line: Int, key: Int64, date: CivilDate
  )] {
    let importer = try CSVImporter(path: path, options: options, defaultCurrency: .usd)
    importer.storedKeys = keys
    var out: [(Bool, Int, Int64, CivilDate)] = []
    try importer.run(skipInvalid: false, progress: nil) { event in
      switch event {
      case .row(let row): out.append((false, row.line, row.key, row.date))
      case .stored(let row): out.append((true, row.line, row.key, row.date))
      default: break
      }
    }
    return out
  }

  static let file = """
    Date,Description,Amount,Category
    2026-10-01,Coffee,-4.50,Dining
    2026-10-01,Coffee,-4.50,Dining
    2026-10-01,  Café   Zürich ,-9.00,Dining
    2026-10-02,Rent,-1200.00,Housing
    2026-10-02,Coffee,-4.50,Dining
    2026-10-03,Salary,2500.00,

    """

  @Test func aStoredRowKeepsTheKeyItsRowWouldHave() throws {
    let path = temporaryFile(Self.file)
    let plain = try Self.read(path, nil)
    #expect(plain.count == 6 && plain.allSatisfy { !$0.stored })
    // The second and fifth rows stored (identical rows are told apart by occurrence).
    let some = Keys([plain[1].key, plain[4].key])
    let mixed = try Self.read(path, some)
    #expect(mixed.map(\.stored) == [false, true, false, false, true, false])
    #expect(mixed.map(\.key) == plain.map(\.key))
    #expect(mixed.map(\.line) == plain.map(\.line))
    #expect(mixed.map(\.date) == plain.map(\.date))
    #expect(some.asked == 6)
    let every = try Self.read(path, Keys(all: true))
    #expect(every.allSatisfy { $0.stored })
    #expect(every.map(\.key) == plain.map(\.key))
  }

  @Test func aRowWhoseTextIsNotItsBytesIsNeverSettledEarly() throws {
    // Bytes that are not UTF-8, replaced (`--replace-invalid`), and a NUL (stored as a
    // visible symbol): the hash is of the text stored, not of the bytes read, so those rows are
    // made whole and the writer checks them.
    var bytes = Array("Date,Description,Amount\n".utf8)
    for day in 1...9 { bytes += Array("2026-10-0\(day),Café Zürich \(day),-4.50\n".utf8) }
    bytes += Array("2026-10-10,Caf".utf8) + [0xE9] + Array(",-4.50\n".utf8)
    bytes += Array("2026-10-11,A".utf8) + [0] + Array("B,-4.50\n".utf8)
    let path = temporaryFile(bytes, name: "mixed.csv")
    var options = ImportOptions()
    options.replaceInvalid = true
    let plain = try Self.read(path, nil, options)
    let every = try Self.read(path, Keys(all: true), options)
    #expect(every.map(\.stored) == Array(repeating: true, count: 9) + [false, false])
    #expect(every.map(\.key) == plain.map(\.key))
  }

  @Test func aFieldReadAsWindows1252IsNeverSettledEarly() throws {
    // An ASCII sample (detection reads 1 MiB) and a byte past it that is not UTF-8: that field
    // is read as Windows-1252, so its text is not its bytes.
    var text = "Date,Description,Amount\n"
    var rows = 0
    while text.utf8.count <= CSVImporter.sampleSize {
      text += "2026-10-01,Shop \(rows),-1.00\n"
      rows += 1
    }
    let bytes = Array(text.utf8) + Array("2026-10-02,Caf".utf8) + [0xE9] + Array(",-4.50\n".utf8)
    let path = temporaryFile(bytes, name: "late.csv")
    let plain = try Self.read(path, nil)
    let every = try Self.read(path, Keys(all: true))
    #expect(every.count == rows + 1)
    #expect(every.dropLast().allSatisfy { $0.stored })
    #expect(every.last?.stored == false)
    #expect(every.map(\.key) == plain.map(\.key))
  }
}

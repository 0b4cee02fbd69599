import ExpenseStore
import GRDBSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the rows of a query, read in key order, are already in date order: then `list` and
/// `export` need no sort, only each date's rows put in id order.
///
/// Why: `ORDER BY date, id` over a million rows is a million-row sort, most of a listing's time
/// (SQLite's sorter spills to temporary files and compares records a million times over). The
/// table is keyed by day first (`ExpenseKey`), so in key order the dates already come sorted
/// and only the rows of one date are out of id order. That holds for every row the program
/// writes, but not for a row an older version stored outside the supported dates (its key
/// wrapped to another day) or one edited by hand: so it is checked, row by row, while the rows
/// are read in key order anyway (the measuring pass of the text list and the export), or in a
/// pass of its own (two columns, no sort).
///
/// The rows are in order when, in key order, every `date` is TEXT and never smaller than the
/// one before (SQLite's BINARY comparison: bytes, then length), every `id` is an INTEGER, no
/// date has two rows with one id (a tie `ORDER BY` would leave to the sorter), and no date has
/// more rows than `runLimit` (the grouped read keeps one date's rows in memory). Otherwise the
/// store sorts with SQL, as before.
struct DateOrderCheck {
  /// The most rows of one date the grouped read holds; a store with more sorts in SQL instead.
  static let runLimit = 10_000

  private(set) var inOrder = true
  private var previousDate: [UInt8] = []
  private var ids: [Int64] = []

  /// Checks the current row of `statement`, whose column 0 is `id` and column 1 `date`.
  mutating func add(_ statement: OpaquePointer) {
    guard inOrder else { return }
    // The values themselves, as `ExpenseRowReader` reads them (fewer calls into SQLite).
    guard let idValue = sqlite3_column_value(statement, 0), let dateValue = sqlite3_column_value(statement, 1),
      sqlite3_value_type(idValue) == SQLITE_INTEGER, sqlite3_value_type(dateValue) == SQLITE_TEXT
    else {
      inOrder = false
      return
    }
    let id = sqlite3_value_int64(idValue)
    let start = sqlite3_value_text(dateValue)
    let count = Int(sqlite3_value_bytes(dateValue))
    let date = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    switch DateOrderCheck.compare(date, previousDate) {
    case .orderedAscending:
      inOrder = false
    case .orderedSame:
      ids.append(id)
      if ids.count > DateOrderCheck.runLimit { inOrder = false }
    case .orderedDescending:
      endRun()
      previousDate.removeAll(keepingCapacity: true)
      previousDate.append(contentsOf: date)
      ids.append(id)
    }
  }

  /// The verdict once every row was added.
  mutating func finish() -> Bool {
    endRun()
    return inOrder
  }

  /// The rows of one date must have distinct ids.
  private mutating func endRun() {
    if ids.count > 1 {
      ids.sort()
      for index in 1..<ids.count where ids[index] == ids[index - 1] { inOrder = false }
    }
    ids.removeAll(keepingCapacity: true)
  }

  enum Ordering {
    case orderedAscending, orderedSame, orderedDescending
  }

  /// SQLite's BINARY collation: the common prefix byte by byte, then the shorter first.
  static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Ordering {
    let common = min(a.count, b.count)
    let difference = b.withUnsafeBufferPointer { b -> Int32 in
      guard common > 0, let left = a.baseAddress, let right = b.baseAddress else { return 0 }
      return memcmp(left, right, common)
    }
    if difference != 0 { return difference < 0 ? .orderedAscending : .orderedDescending }
    if a.count == b.count { return .orderedSame }
    return a.count < b.count ? .orderedAscending : .orderedDescending
  }
}

import ExpenseCore
import GRDBSQLite

/// Reads the current row of a streaming SELECT (`AppDatabase.streamSQL`'s columns) straight
/// from the statement into an `ExpenseRow`: texts are borrowed from SQLite, numbers read as
/// integers, nothing allocated per row.
///
/// Why its own reader: decoding through GRDB's `Row` makes a `String` per text column and
/// checks each column by name, which was most of a million-row listing's time. It takes only
/// values that decode to exactly what `AppDatabase.expense(from:)` would make (an INTEGER where
/// an integer belongs, TEXT that is valid UTF-8 without NUL, a `YYYY-MM-DD` date that exists, a
/// known currency); for anything else `visitCurrentRow` returns false and the caller decodes the
/// row the general way, errors and all.
struct ExpenseRowReader {
  let statement: OpaquePointer
  /// The last currency read and the bytes it was read from (at most 8, packed), so a column
  /// that is `USD` a million times is looked up once.
  private var lastCurrency: (packed: UInt64, currency: Currency)?

  init(statement: OpaquePointer) { self.statement = statement }

  /// Calls `body` with the current row and returns true; false (without calling it) when a
  /// value needs the general decoder.
  mutating func visitCurrentRow(_ body: (ExpenseRow) throws -> Void) rethrows -> Bool {
    var id: Int64? = nil
    switch sqlite3_column_type(statement, 0) {
    case SQLITE_INTEGER: id = sqlite3_column_int64(statement, 0)
    case SQLITE_NULL: break
    default: return false
    }
    guard let dateBytes = text(1), let date = ExpenseRowReader.date(dateBytes),
      sqlite3_column_type(statement, 2) == SQLITE_INTEGER,
      let currencyBytes = text(3), let currency = currency(currencyBytes),
      let description = text(4),
      let category = optionalText(5), let account = optionalText(6), let file = optionalText(7)
    else { return false }
    let amount = sqlite3_column_int64(statement, 2)
    var line: Int? = nil
    switch sqlite3_column_type(statement, 8) {
    case SQLITE_INTEGER: line = Int(exactly: sqlite3_column_int64(statement, 8))
    case SQLITE_NULL: break
    default: return false
    }
    try body(
      ExpenseRow(
        id: id, date: date, amount: Money(minor: amount, currency: currency), description: description,
        category: category, account: account, sourceFile: file, sourceLine: line ?? 0))
    return true
  }

  /// Column `index` as TEXT bytes up to the first NUL (where GRDB's `String(cString:)` stops),
  /// or nil when it is not TEXT or not valid UTF-8.
  private func text(_ index: Int32) -> UnsafeBufferPointer<UInt8>? {
    guard sqlite3_column_type(statement, index) == SQLITE_TEXT else { return nil }
    // `sqlite3_column_text` first, then `_bytes`: the order SQLite documents.
    let start = sqlite3_column_text(statement, index)
    let count = Int(sqlite3_column_bytes(statement, index))
    guard let start else { return UnsafeBufferPointer(start: nil, count: 0) }
    var bytes = UnsafeBufferPointer(start: start, count: count)
    var ascii = true
    for (offset, byte) in bytes.enumerated() {
      if byte == 0 {
        bytes = UnsafeBufferPointer(rebasing: bytes[..<offset])
        break
      }
      if byte >= 0x80 { ascii = false }
    }
    return ascii || UTF8Check.isValid(bytes) ? bytes : nil
  }

  /// An optional text column: `.some(nil)` for NULL, nil when the value needs the general path.
  private func optionalText(_ index: Int32) -> UnsafeBufferPointer<UInt8>?? {
    if sqlite3_column_type(statement, index) == SQLITE_NULL { return .some(nil) }
    guard let bytes = text(index) else { return nil }
    return .some(bytes)
  }

  /// A stored `YYYY-MM-DD` that exists, as `CivilDate.parseStored` reads it when there is no
  /// space around it (a date with spaces goes the general way, which trims them).
  static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let digit = Int(bytes[index]) &- 48
        guard digit >= 0, digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
    return CivilDate(year: year, month: month, day: day)
  }

  /// The currency of a code's bytes, as `Currency(code:)` reads the decoded string.
  private mutating func currency(_ bytes: UnsafeBufferPointer<UInt8>) -> Currency? {
    guard bytes.count <= 8 else { return Currency(code: ExpenseRow.string(bytes)) }
    var packed = UInt64(bytes.count)
    for byte in bytes { packed = packed << 8 | UInt64(byte) }
    if let last = lastCurrency, last.packed == packed { return last.currency }
    guard let currency = Currency(code: ExpenseRow.string(bytes)) else { return nil }
    lastCurrency = (packed, currency)
    return currency
  }
}

/// UTF-8 validation by the Unicode standard's table of well-formed byte sequences (no overlong
/// forms, no surrogates, nothing above U+10FFFF): bytes that pass are what Swift keeps
/// unchanged when it makes a `String`, so they can be copied instead of decoded.
enum UTF8Check {
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    func continuation(_ at: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      at < count && bytes[at] >= low && bytes[at] <= high
    }
    while index < count {
      let lead = bytes[index]
      switch lead {
      case 0x00...0x7F:
        index += 1
      case 0xC2...0xDF:
        guard continuation(index + 1) else { return false }
        index += 2
      case 0xE0...0xEF:
        let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
        let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
        guard continuation(index + 1, low, high), continuation(index + 2) else { return false }
        index += 3
      case 0xF0...0xF4:
        let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
        let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
        guard continuation(index + 1, low, high), continuation(index + 2), continuation(index + 3) else { return false }
        index += 4
      default:
        return false
      }
    }
    return true
  }
}

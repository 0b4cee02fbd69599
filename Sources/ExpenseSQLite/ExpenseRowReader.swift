import ExpenseCore
import ExpenseStore
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
///
/// With `texts` (`StreamTexts`, the dictionaries held in memory), the statement is the one
/// `AppDatabase.streamSQL(joined: false)` makes: the currency, description, category and file
/// columns hold ids, looked up here; an id without an entry needs the general decoder too.
struct ExpenseRowReader {
  let statement: OpaquePointer
  let texts: StreamTexts?
  /// The last currency read and the bytes it was read from (at most 8, packed), so a column
  /// that is `USD` a million times is looked up once.
  private var lastCurrency: (packed: UInt64, currency: Currency)?
  /// The last date read, by its ten bytes: rows come a day at a time, so most rows parse none.
  private var lastDate: (head: UInt64, tail: UInt16, date: CivilDate)?

  init(statement: OpaquePointer, texts: StreamTexts? = nil) {
    self.statement = statement
    self.texts = texts
  }

  /// Calls `body` with the current row and returns true; false (without calling it) when a
  /// value needs the general decoder.
  mutating func visitCurrentRow(_ body: (ExpenseRow) throws -> Void) rethrows -> Bool {
    // One `sqlite3_column_value` per column, then the value's own accessors: each
    // `sqlite3_column_*` call takes the connection's locks and error state again. The values are
    // read on the connection's one thread only, as SQLite asks of unprotected values.
    guard let idValue = sqlite3_column_value(statement, 0), let dateValue = sqlite3_column_value(statement, 1),
      let amountValue = sqlite3_column_value(statement, 2), let currencyValue = sqlite3_column_value(statement, 3),
      let descriptionValue = sqlite3_column_value(statement, 4),
      let categoryValue = sqlite3_column_value(statement, 5), let accountValue = sqlite3_column_value(statement, 6),
      let fileValue = sqlite3_column_value(statement, 7), let lineValue = sqlite3_column_value(statement, 8)
    else { return false }
    var id: Int64? = nil
    switch sqlite3_value_type(idValue) {
    case SQLITE_INTEGER: id = sqlite3_value_int64(idValue)
    case SQLITE_NULL: break
    default: return false
    }
    guard let dateBytes = ExpenseRowReader.text(dateValue), let date = cachedDate(dateBytes),
      sqlite3_value_type(amountValue) == SQLITE_INTEGER,
      let account = ExpenseRowReader.optionalText(accountValue)
    else { return false }
    let currency: Currency
    let description: UnsafeBufferPointer<UInt8>
    let category: UnsafeBufferPointer<UInt8>?
    let file: UnsafeBufferPointer<UInt8>?
    if let texts {
      guard sqlite3_value_type(currencyValue) == SQLITE_INTEGER,
        let known = texts.currency(sqlite3_value_int64(currencyValue)),
        let text = ExpenseRowReader.description(descriptionValue, texts),
        let categoryText = ExpenseRowReader.optionalText(id: categoryValue, texts.category),
        let fileText = ExpenseRowReader.optionalText(id: fileValue, texts.file)
      else { return false }
      (currency, description, category, file) = (known, text, categoryText, fileText)
    } else {
      guard let currencyBytes = ExpenseRowReader.text(currencyValue), let known = self.currency(currencyBytes),
        let text = ExpenseRowReader.text(descriptionValue),
        let categoryText = ExpenseRowReader.optionalText(categoryValue),
        let fileText = ExpenseRowReader.optionalText(fileValue)
      else { return false }
      (currency, description, category, file) = (known, text, categoryText, fileText)
    }
    let amount = sqlite3_value_int64(amountValue)
    var line: Int? = nil
    switch sqlite3_value_type(lineValue) {
    case SQLITE_INTEGER: line = Int(exactly: sqlite3_value_int64(lineValue))
    case SQLITE_NULL: break
    default: return false
    }
    try body(
      ExpenseRow(
        id: id, date: date, amount: Money(minor: amount, currency: currency), description: description,
        category: category, account: account, sourceFile: file, sourceLine: line ?? 0))
    return true
  }

  /// A TEXT value's bytes up to the first NUL (where GRDB's `String(cString:)` stops), or nil
  /// when it is not TEXT or not valid UTF-8.
  static func text(_ value: OpaquePointer) -> UnsafeBufferPointer<UInt8>? {
    guard sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
    // `sqlite3_value_text` first, then `_bytes`: the order SQLite documents.
    let start = sqlite3_value_text(value)
    let count = Int(sqlite3_value_bytes(value))
    return validText(UnsafeBufferPointer(start: start, count: count))
  }

  /// `bytes` up to the first NUL, or nil when they are not valid UTF-8.
  static func validText(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    guard bytes.baseAddress != nil else { return UnsafeBufferPointer(start: nil, count: 0) }
    switch UTF8Check.asciiPrefix(bytes) {
    case .ascii(let length): return UnsafeBufferPointer(rebasing: bytes[..<length])
    case .notASCII(let length):
      let text = UnsafeBufferPointer(rebasing: bytes[..<length])
      return UTF8Check.isValid(text) ? text : nil
    }
  }

  /// A description read by id (`StreamTexts`), or stored inline as a BLOB
  /// (`AppDatabase.migrateInlineTexts`): its bytes up to the first NUL (as the general path's
  /// `CAST(… AS TEXT)` reads them), or nil when they need the general path.
  private static func description(_ value: OpaquePointer, _ texts: StreamTexts) -> UnsafeBufferPointer<UInt8>? {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return texts.description(sqlite3_value_int64(value))
    case SQLITE_BLOB:
      // `_blob` first, then `_bytes`, as for text.
      let start = sqlite3_value_blob(value)?.assumingMemoryBound(to: UInt8.self)
      return validText(UnsafeBufferPointer(start: start, count: Int(sqlite3_value_bytes(value))))
    default: return nil
    }
  }

  /// An optional text column: `.some(nil)` for NULL, nil when the value needs the general path.
  private static func optionalText(_ value: OpaquePointer) -> UnsafeBufferPointer<UInt8>?? {
    if sqlite3_value_type(value) == SQLITE_NULL { return .some(nil) }
    guard let bytes = text(value) else { return nil }
    return .some(bytes)
  }

  /// An optional text held by id: `.some(nil)` for a NULL id, nil when the id is not an
  /// INTEGER or has no entry (the join would have given NULL: the general path decides).
  private static func optionalText(
    id value: OpaquePointer, _ lookup: (Int64) -> UnsafeBufferPointer<UInt8>?
  ) -> UnsafeBufferPointer<UInt8>?? {
    switch sqlite3_value_type(value) {
    case SQLITE_NULL: return .some(nil)
    case SQLITE_INTEGER:
      guard let text = lookup(sqlite3_value_int64(value)) else { return nil }
      return .some(text)
    default: return nil
    }
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

  /// `date(bytes)`, remembered for the next row of the same day.
  private mutating func cachedDate(_ bytes: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    guard bytes.count == 10, let start = bytes.baseAddress else { return ExpenseRowReader.date(bytes) }
    let head = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
    let tail = UnsafeRawPointer(start + 8).loadUnaligned(as: UInt16.self)
    if let last = lastDate, last.head == head, last.tail == tail { return last.date }
    guard let date = ExpenseRowReader.date(bytes) else { return nil }
    lastDate = (head, tail, date)
    return date
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
  /// Where a text stops for `String(cString:)` (its first NUL, else its end), and whether the
  /// bytes before are all ASCII.
  enum Prefix {
    case ascii(Int)
    case notASCII(Int)
  }

  /// Scans eight bytes at a time: most texts are short ASCII, read once here.
  static func asciiPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Prefix {
    guard let base = bytes.baseAddress else { return .ascii(0) }
    let count = bytes.count
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = 0
    var ascii = true
    while index + 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      // A zero byte or a byte with its high bit set: look at this word byte by byte.
      if (word &- ones) & ~word & highs != 0 || word & highs != 0 { break }
      index += 8
    }
    while index < count {
      let byte = base[index]
      if byte == 0 { break }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    return ascii ? .ascii(index) : .notASCII(index)
  }

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

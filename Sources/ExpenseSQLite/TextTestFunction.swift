import ExpenseStore
import GRDB
import GRDBSQLite

/// `expenseTextPasses(description)`: whether a description stored inline in its row (a BLOB,
/// `migrateInlineTexts`) passes a search's text test, so the search's SELECT keeps only the
/// rows that can match, as it does for the dictionary's texts (tested once each, by id).
///
/// A plain C function (no value boxed per call) registered for one test at a time on this
/// program's connection, the test in its user data. An ASCII text is tested on its bytes when
/// the test says how (`TextTest.AsciiRule`), any other through `TextTest.test`. A value that is
/// not a BLOB passes: the service tests every row it is given again, so passing is only ever
/// slower, never wrong.
enum TextTestFunction {
  static let name = "expenseTextPasses"

  /// Registers `test`; false when SQLite refused (a statement still running), and the caller
  /// then lets every inline description through.
  static func register(_ test: TextTest, _ db: Database) -> Bool {
    let state = Unmanaged.passRetained(Box(test)).toOpaque()
    let code = sqlite3_create_function_v2(
      db.sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, state, call, nil, nil, release)
    // On failure SQLite has already called `release` for the user data.
    return code == SQLITE_OK
  }

  final class Box {
    let test: TextTest
    init(_ test: TextTest) { self.test = test }
  }

  private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() }
  }

  private static let call: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, values in
    guard count == 1, let value = values?[0], sqlite3_value_type(value) == SQLITE_BLOB,
      let pointer = sqlite3_user_data(context)
    else {
      sqlite3_result_int(context, 1)
      return
    }
    let test = Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue().test
    let start = sqlite3_value_blob(value)?.assumingMemoryBound(to: UInt8.self)
    let bytes = UnsafeBufferPointer(start: start, count: Int(sqlite3_value_bytes(value)))
    sqlite3_result_int(context, passes(bytes, test) ? 1 : 0)
  }

  /// Whether the text of `bytes` passes `test`.
  static func passes(_ bytes: UnsafeBufferPointer<UInt8>, _ test: TextTest) -> Bool {
    if let rule = test.ascii, bytes.allSatisfy({ $0 < 0x80 }) {
      switch rule {
      case .never: return false
      case .lowercasedContains(let needle): return lowercasedContains(bytes, needle)
      }
    }
    return test.test(String(decoding: bytes, as: UTF8.self))
  }

  /// Whether the ASCII `bytes`, letters made lower-case, hold `needle` (lower-case ASCII).
  static func lowercasedContains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: String) -> Bool {
    var needle = needle
    return needle.withUTF8 { n in
      guard n.count <= bytes.count else { return false }
      guard let first = n.first else { return true }
      func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
      var i = 0
      while i + n.count <= bytes.count {
        if lower(bytes[i]) == first {
          var j = 1
          while j < n.count && lower(bytes[i + j]) == n[j] { j += 1 }
          if j == n.count { return true }
        }
        i += 1
      }
      return false
    }
  }
}

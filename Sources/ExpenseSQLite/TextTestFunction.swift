import ExpenseCore
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
    /// The ASCII rule's needle, as bytes once.
    let needle: [UInt8]
    init(_ test: TextTest) {
      self.test = test
      if case .lowercasedContains(let text) = test.ascii { needle = Array(text.utf8) } else { needle = [] }
    }
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
    let box = Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue()
    let start = sqlite3_value_blob(value)?.assumingMemoryBound(to: UInt8.self)
    let bytes = UnsafeBufferPointer(start: start, count: Int(sqlite3_value_bytes(value)))
    sqlite3_result_int(context, passes(bytes, box) ? 1 : 0)
  }

  /// Whether the text of `bytes` passes the test `box` holds.
  static func passes(_ bytes: UnsafeBufferPointer<UInt8>, _ box: Box) -> Bool {
    if let rule = box.test.ascii, bytes.allSatisfy({ $0 < 0x80 }) {
      switch rule {
      case .never: return false
      case .lowercasedContains: return ExpenseFilter.asciiContains(bytes, box.needle)
      }
    }
    return box.test.test(String(decoding: bytes, as: UTF8.self))
  }
}

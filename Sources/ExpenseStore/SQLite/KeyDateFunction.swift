import ExpenseCore
import GRDB
import GRDBSQLite

/// `expenseKeyDate(key)`: the `YYYY-MM-DD` of a key's day, the value the `expense` view gives a
/// row whose `date` is NULL (`keyDateSQL`, SQLite's `date()` of the day as a Julian day
/// number), computed without it.
///
/// Why: a streaming read of a million rows spent about half its time in SQLite's `date()`
/// (parsing a number, formatting through `printf`); the streaming SELECT reads `expenseRow`
/// with this function instead (`AppDatabase.streamSQL`). Registered on this program's
/// connections only, as a plain C function (no value boxed per call), so the view itself
/// stays readable by any SQLite client. Exact for every key the view dates: a key is below
/// 2^63 and its day field below 2^20, days 1970 ± 1,435 years, inside `CivilDate`'s range; a
/// negative key (never written by this program) gives NULL, as `date()` of a negative Julian
/// day does.
enum KeyDateFunction {
  static let name = "expenseKeyDate"

  static func register(_ db: Database) {
    sqlite3_create_function_v2(
      db.sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, call, nil, nil, nil)
  }

  private static let call: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, values in
    guard count == 1, let value = values?[0], sqlite3_value_type(value) == SQLITE_INTEGER else {
      sqlite3_result_null(context)
      return
    }
    let key = sqlite3_value_int64(value)
    guard key >= 0 else {
      sqlite3_result_null(context)
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
      guard let start = buffer.baseAddress else { return sqlite3_result_null(context) }
      ImportBatch.writeDate(ExpenseKey(rawValue: key).date, to: start)
      sqlite3_result_text(
        context, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), 10,
        unsafeBitCast(-1, to: sqlite3_destructor_type.self))  // SQLITE_TRANSIENT: SQLite copies
    }
  }
}

import ExpenseCore
import ExpenseStore
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
/// 2^63 and its day field below 2^20, days 1970 ± 1,435 years, inside `CivilDate`'s range. A
/// negative key (never written by this program) gives NULL, and the streaming SELECT dates it
/// with the view's own `date()` (`AppDatabase.streamDate`).
///
/// Each connection keeps the text of the last day it made (`State`): the rows of a read come in
/// key order, so a day's rows ask for one text, and the answer is handed to SQLite where it
/// lies (`SQLITE_STATIC`, NUL-terminated) instead of being copied into memory SQLite allocates
/// for every row (those copies and the day's conversion were about a tenth of a busy month's
/// JSON report, callgrind). SQLite reads a function's text before the statement's next step
/// (the row's value, or the sorter's copy of it); the text of the day before stays where it was
/// until the next change of day, in a second slot, so even a value kept one row longer reads
/// right.
enum KeyDateFunction {
  static let name = "expenseKeyDate"

  /// One connection's last texts: two slots of 10 bytes and a NUL, the current one holding
  /// `day`'s text. The NUL lets SQLite hand the text to a reader as it is: a text without one
  /// is copied to add it (`sqlite3_value_text`).
  final class State {
    let slots: UnsafeMutablePointer<UInt8> = {
      let slots = UnsafeMutablePointer<UInt8>.allocate(capacity: 22)
      slots.initialize(repeating: 0, count: 22)
      return slots
    }()
    var day: Int64 = -1
    var current = 0

    deinit { slots.deallocate() }

    /// The text of `key`'s day, made at most once per change of day.
    func text(ofKey key: Int64) -> UnsafeMutablePointer<UInt8> {
      let day = ExpenseKey(rawValue: key).day
      if day != self.day {
        current = 1 - current
        ImportBatch.writeDate(ExpenseKey(rawValue: key).date, to: slots + current * 11)
        self.day = day
      }
      return slots + current * 11
    }
  }

  static func register(_ db: Database) {
    // The connection owns its state: released by SQLite when the function is replaced or the
    // connection closes.
    let state = Unmanaged.passRetained(State()).toOpaque()
    sqlite3_create_function_v2(
      db.sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, state, call, nil, nil, release)
  }

  private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    if let pointer { Unmanaged<State>.fromOpaque(pointer).release() }
  }

  private static let call: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, values in
    guard count == 1, let value = values?[0], sqlite3_value_type(value) == SQLITE_INTEGER,
      let pointer = sqlite3_user_data(context)
    else {
      sqlite3_result_null(context)
      return
    }
    let key = sqlite3_value_int64(value)
    guard key >= 0 else {
      sqlite3_result_null(context)
      return
    }
    let text = Unmanaged<State>.fromOpaque(pointer).takeUnretainedValue().text(ofKey: key)
    // Length -1: up to the NUL, which SQLite then knows is there. No destructor: SQLITE_STATIC
    // (see `State`).
    sqlite3_result_text(context, UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), -1, nil)
  }
}

import ExpenseCore
import Foundation
import GRDBSQLite

/// One read-only connection to an import's database in a read transaction begun while the
/// writer held the lock (so its snapshot is the writer's before the import), and the read of
/// one window of stored keys through it (`StoredKeyWindows`). Used by one thread at a time.
final class StoredKeyWindowReader {
  private var connection: OpaquePointer?
  private var statement: OpaquePointer?

  /// Opens `path` read-only and begins the read transaction; nil if it cannot.
  init?(path: String) {
    guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
      let connection
    else {
      close()
      return nil
    }
    sqlite3_busy_timeout(connection, 5000)
    guard sqlite3_exec(connection, "BEGIN", nil, nil, nil) == SQLITE_OK,
      sqlite3_prepare_v2(
        connection, "SELECT key FROM expenseRow WHERE key BETWEEN ? AND ? ORDER BY key", -1, &statement, nil)
        == SQLITE_OK,
      statement != nil
    else {
      close()
      return nil
    }
  }

  /// The keys of window `index` (days `index << dayBits` and the 31 after), or nil on any
  /// error or a key out of the window's days.
  func read(_ index: Int64) -> StoredKeyWindows.Window? {
    guard let statement else { return nil }
    let firstDay = index << StoredKeyWindows.dayBits
    let days = 1 << StoredKeyWindows.dayBits
    sqlite3_bind_int64(statement, 1, ExpenseKey.range(day: firstDay).lowerBound)
    sqlite3_bind_int64(statement, 2, ExpenseKey.range(day: firstDay + Int64(days) - 1).upperBound)
    defer { sqlite3_reset(statement) }
    var keys: [Int64] = []
    var dayStarts = [Int32](repeating: 0, count: days + 1)
    var step = sqlite3_step(statement)
    while step == SQLITE_ROW {
      let key = sqlite3_column_int64(statement, 0)
      let offset = Int(ExpenseKey(rawValue: key).day - firstDay)
      guard offset >= 0, offset < days else { return nil }
      dayStarts[offset + 1] &+= 1
      keys.append(key)
      step = sqlite3_step(statement)
    }
    // Counts past Int32 (a window of two billion stored rows) are no window to keep.
    guard step == SQLITE_DONE, keys.count < Int(Int32.max) else { return nil }
    for offset in 0..<days { dayStarts[offset + 1] += dayStarts[offset] }
    return StoredKeyWindows.Window(index: index, keys: keys, dayStarts: dayStarts)
  }

  /// Ends the read transaction and closes the connection.
  func close() {
    if let statement { sqlite3_finalize(statement) }
    statement = nil
    if let connection {
      sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
      sqlite3_close_v2(connection)
    }
    connection = nil
  }

  deinit { close() }
}

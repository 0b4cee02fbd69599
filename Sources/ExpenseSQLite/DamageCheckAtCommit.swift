import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite

/// `refuseDamage` run beside the command instead of before it: `PRAGMA quick_check` on a
/// read-only connection of its own, on a thread of its own, awaited by the writer's first
/// commit, which is refused (and rolled back) on a damaged file (`AppDatabase.DamageCheck`).
///
/// Why: the check reads every page of the file (about 0.1 s for a million rows), and before
/// it ran before an import parsed its first row. In WAL mode the reader sees the file as last
/// committed, which is what the check before the open saw: nothing the writer has not yet
/// committed, and no commit of another process can come while this import holds the write
/// lock. The verdict guards every commit of the connection (SQLite's commit hook, through
/// GRDB's transaction observers), so nothing is ever committed to a file found damaged.
final class DamageCheckAtCommit: TransactionObserver, @unchecked Sendable {
  private let path: String
  private let condition = NSCondition()
  /// The check's rows (`["ok"]` when sound), or why it could not run; nil while it runs.
  private var verdict: Result<[String], StoreError>?

  /// Starts the check of the file at `path`, waiting up to `wait` seconds for a lock.
  init(path: String, wait: Double) {
    self.path = path
    let thread = Thread { [self] in
      let found = DamageCheckAtCommit.quickCheck(path: path, wait: wait)
      condition.lock()
      verdict = found
      condition.broadcast()
      condition.unlock()
    }
    thread.name = "expenses-damage-check"
    thread.start()
  }

  /// `PRAGMA quick_check(3)` on a read-only connection.
  static func quickCheck(path: String, wait: Double) -> Result<[String], StoreError> {
    var connection: OpaquePointer?
    defer { sqlite3_close_v2(connection) }
    guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
      let connection
    else { return .failure(.corrupt(path: path, detail: "the file could not be opened to check it")) }
    sqlite3_busy_timeout(connection, Int32(clamping: Int((wait * 1000).rounded())))
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(connection, "PRAGMA quick_check(3)", -1, &statement, nil) == SQLITE_OK, let statement
    else { return .failure(failure(connection, path: path)) }
    var rows: [String] = []
    var step = sqlite3_step(statement)
    while step == SQLITE_ROW {
      rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
      step = sqlite3_step(statement)
    }
    guard step == SQLITE_DONE else { return .failure(failure(connection, path: path)) }
    return .success(rows)
  }

  /// What SQLite said, as the store's error (a damaged header or page is `.corrupt`).
  private static func failure(_ connection: OpaquePointer, path: String) -> StoreError {
    let code = sqlite3_errcode(connection)
    let message = String(cString: sqlite3_errmsg(connection))
    return AppDatabase.map(DatabaseError(resultCode: ResultCode(rawValue: code), message: message), path: path)
  }

  /// The check's verdict, waiting for it if it still runs.
  func wait() -> Result<[String], StoreError> {
    condition.lock()
    defer { condition.unlock() }
    while verdict == nil { condition.wait() }
    return verdict ?? .success(["ok"])
  }

  func databaseWillCommit() throws {
    let problems = try wait().get()
    guard problems == ["ok"] else { throw StoreError.corrupt(path: path, detail: problems.joined(separator: "; ")) }
  }

  func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
  func databaseDidChange(with event: DatabaseEvent) {}
  func databaseDidCommit(_ db: Database) {}
  func databaseDidRollback(_ db: Database) {}
}

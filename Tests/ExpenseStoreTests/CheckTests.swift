import ExpenseCore
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import GRDBSQLite
import ServiceTestSupport
import Testing

/// `check`, `repairRollups`, `backup` and `restore` on temporary databases damaged by hand.
@Suite struct CheckTests {
  /// A fresh database file with three expenses in two months, and its path.
  func makeDatabase() throws -> (AppDatabase, String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("db.sqlite").path
    let db = try AppDatabase(path: path)
    for (day, minor, text) in [
      ("2026-09-30", -1250, "Coffee"), ("2026-10-01", -500, "Bus"), ("2026-10-02", 900, "Refund"),
    ] {
      try db.addExpense(
        Expense(
          date: try CivilDate.parse(day), amount: Money(minor: Int64(minor), currency: .usd), description: text,
          category: "Food"))
    }
    return (db, path)
  }

  func cleanUp(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// Runs SQL on the file through a second connection, as a hand edit in `sqlite3` would.
  /// The first column of the first row of `sql`, as an integer.
  func integer(_ path: String, _ sql: String) throws -> Int {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure() }
    return Int(sqlite3_column_int64(statement, 0))
  }

  func exec(_ path: String, _ sql: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK else { throw Failure() }
    defer { sqlite3_close(handle) }
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw Failure(message: String(cString: sqlite3_errmsg(handle)))
    }
  }

  struct Failure: Error { var message = "" }

  /// `check` proves each carry under rollover from the rows: in step, the rows give what the
  /// report shows; with September's total changed by hand, the report's carry (read from the
  /// totals) differs from the rows', and both the rollup and the carry say so until repaired.
  @Test func everyCarryIsProvedFromTheRows() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    let day = try CivilDate.parse("2026-11-15")
    let service = ExpenseService(store: db, clock: ServiceClock(now: { Date() }, today: { day }))
    _ = try service.setBudget(
      category: "Food", amount: "20", month: try Month.parse("2026-09"), currency: nil, rollover: .all)
    _ = try service.setBudget(category: "Food", amount: "20", month: nil, currency: nil)
    // September: 20.00 − 12.50 = 7.50; October: 20.00 + 7.50 − (5.00 − 9.00) = 31.50.
    var outcome = try service.check(repair: false)
    #expect(outcome.carries.map(\.carriedInMinor) == [3_150] && outcome.carries.allSatisfy(\.matches))
    try exec(path, "UPDATE monthTotal SET outflow = outflow + 1000 WHERE month = '2026-09'")
    outcome = try service.check(repair: false)
    #expect(!outcome.report.isHealthy)
    #expect(outcome.carries.map(\.carriedInMinor) == [2_150] && outcome.carries.map(\.fromRowsMinor) == [3_150])
    outcome = try service.check(repair: true)
    #expect(outcome.report.isHealthy && outcome.carries.allSatisfy(\.matches))
  }

  @Test func aHealthyDatabasePasses() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    let report = try db.check()
    #expect(report.isHealthy)
    #expect(report.expenseCount == 3)
    #expect(report.rollupsChecked == ["monthTotal"])
  }

  @Test func aStaleRollupIsFoundByMonthAndRebuilt() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    // A hand-written repair that forgot the totals: the row is gone, its month's sums are not.
    try exec(path, "DELETE FROM expense WHERE description = 'Bus'")
    let report = try db.check()
    #expect(!report.isHealthy)
    #expect(report.problems.map(\.kind) == [.rollupOutOfStep])
    #expect(report.problems.first?.months == ["2026-10"])
    let repaired = try db.repairRollups()
    #expect(repaired.rebuilt == ["monthTotal"])
    #expect(repaired.report.isHealthy)
    #expect(try db.expenseCount(month: Month.parse("2026-10")) == 1)
  }

  @Test func unreadableValuesNameTheirRowsAndBlockTheRepair() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    try exec(
      path,
      """
      UPDATE expense SET amountMinor = 12.5 WHERE id = 1;
      UPDATE expense SET currency = 'XXQ' WHERE id = 2;
      UPDATE expense SET date = '2026-02-30' WHERE id = 3;
      """)
    let report = try db.check()
    let unreadable = report.problems.filter { $0.kind == .unreadable }
    #expect(unreadable.count == 3)
    #expect(unreadable.contains { $0.rowIDs == [1] && $0.message.contains("amount") && $0.months == ["2026-09"] })
    #expect(unreadable.contains { $0.rowIDs == [2] && $0.message.contains("XXQ") })
    #expect(unreadable.contains { $0.rowIDs == [3] && $0.message.contains("date") })
    // The totals would carry the REAL amount: nothing is rebuilt while it is there.
    let repaired = try db.repairRollups()
    #expect(repaired.rebuilt.isEmpty)
    #expect(!repaired.report.isHealthy)
  }

  @Test func anOverflowingMonthIsNamedNotATrap() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    try exec(path, "UPDATE expense SET amountMinor = -5000000000000000000 WHERE date LIKE '2026-10%'")
    let report = try db.check()
    let overflow = try #require(report.problems.first { $0.kind == .overflow })
    #expect(overflow.months == ["2026-10"])
    let repaired = try db.repairRollups()
    #expect(repaired.rebuilt.isEmpty)
  }

  @Test func aDamagedPageIsReported() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    // Enough rows for the expense table to span several pages, then garbage over one of them.
    try exec(
      path,
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
      INSERT INTO expense (key, id, date, amountMinor, currency, description)
      SELECT (20000 + 524288) << 43 | i, 100 + i, '2024-10-04', -i, 'USD', printf('row %d of the filler', i) FROM n;
      PRAGMA wal_checkpoint(TRUNCATE);
      """)
    // The expense rows' root page (an interior page once they span several), whole.
    let pageSize = try integer(path, "PRAGMA page_size")
    let root = try integer(path, "SELECT rootpage FROM sqlite_master WHERE name = 'expenseRow'")
    #expect(root > 1)
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: UInt64(pageSize) * UInt64(root - 1))
    try handle.write(contentsOf: Data(repeating: 0x5A, count: pageSize))
    try handle.close()
    let report = try db.check()
    #expect(!report.integrity.isEmpty, "integrity_check names the damaged page")
    #expect(!report.isHealthy)
  }

  @Test func backupThenRestoreReplacesTheRows() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    let copy = path + ".copy"
    try db.backup(into: copy)
    let info = try AppDatabase.verifyBackup(at: copy)
    #expect(info.expenseCount == 3)
    try db.addExpense(
      Expense(date: try CivilDate.parse("2026-10-05"), amount: Money(minor: -1, currency: .usd), description: "Late"))
    #expect(try db.expenseCount() == 4)
    let restored = try db.restore(from: copy)
    #expect(restored.expenseCount == 3)
    #expect(try db.expenses().map(\.description).sorted() == ["Bus", "Coffee", "Refund"])
    #expect(try db.check().isHealthy)
  }

  @Test func restoreRefusesWhatIsNotOurs() throws {
    let (db, path) = try makeDatabase()
    defer { cleanUp(path) }
    let other = path + ".other"
    try exec(other, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');")
    #expect(throws: BackupError.notOurs(path: other)) { try db.restore(from: other) }
    let garbage = path + ".garbage"
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
    #expect {
      try AppDatabase.verifyBackup(at: garbage)
    } throws: { error in
      if case .damaged = error as? BackupError { return true }
      return false
    }
    let newer = path + ".newer"
    try db.backup(into: newer)
    try exec(newer, "PRAGMA user_version = 99")
    #expect(throws: BackupError.newerSchema(path: newer, found: 99, supported: AppDatabase.schemaVersion)) {
      try AppDatabase.verifyBackup(at: newer)
    }
    #expect(try db.expenseCount() == 3, "nothing was restored")
  }
}

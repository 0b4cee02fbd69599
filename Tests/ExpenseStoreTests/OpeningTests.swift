import ExpenseCore
import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// Opening a file: migrations back the file up first; a read opens nothing for writing.
@Suite final class OpeningTests {
  /// Folders made by `temporaryPath`, removed when the test's instance goes.
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  func temporaryPath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-store-\(UUID().uuidString)")
    folders.append(folder.path)
    return folder.appendingPathComponent("db.sqlite").path
  }

  /// A new file's schema is written without a sync per migration; the connection that goes on
  /// to import into it syncs as every other does again, the file is in WAL mode and ours.
  @Test func aNewFileIsWrittenWithSyncsAgainOnceItsSchemaIsMade() throws {
    let path = temporaryPath()
    let db = try AppDatabase(path: path)
    let (synchronous, journal, id, version) = try db.writer.read { db in
      (
        try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "PRAGMA journal_mode"),
        try Int32.fetchOne(db, sql: "PRAGMA application_id"), try Int.fetchOne(db, sql: "PRAGMA user_version")
      )
    }
    #expect(synchronous == 1)  // NORMAL
    #expect(journal == "wal")
    #expect(id == AppDatabase.applicationID)
    #expect(version == AppDatabase.schemaVersion)
  }

  @Test func aPendingMigrationCopiesTheFileFirst() throws {
    let path = temporaryPath()
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FutureSchema.writeVersion1(path: path)
    let db = try AppDatabase(path: path, access: .read)
    #expect(try db.expenses().count == 2)
    let backup = "\(path).before-v\(AppDatabase.schemaVersion)"
    #expect(FileManager.default.fileExists(atPath: backup))
    var handle: OpaquePointer?
    #expect(sqlite3_open_v2(backup, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      handle, "SELECT COUNT(*), (SELECT user_version FROM pragma_user_version) FROM expense", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    #expect(sqlite3_step(statement) == SQLITE_ROW)
    #expect(sqlite3_column_int(statement, 0) == 2, "the copy holds the rows as they were")
    #expect(sqlite3_column_int(statement, 1) == 1, "and the old schema")
    let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // Opening again finds nothing pending: no second copy.
    _ = try AppDatabase(path: path)
    #expect(!FileManager.default.fileExists(atPath: backup + ".1"))
  }

  /// A version 7 file (before the index of dated rows) gains the index on its next opening, a
  /// read's included, after a copy; its rows read as before.
  @Test func aVersion7FileGainsTheIndexOfDatedRows() throws {
    let path = temporaryPath()
    let made = try AppDatabase(path: path)
    try made.importRows(sourceFile: "a.csv") { feeder in
      for day in 1...20 {
        try feeder.insert(
          date: CivilDate(year: 2026, month: 10, day: day)!, amount: Money(minor: -Int64(day), currency: .usd),
          description: "row \(day)", category: nil, account: nil, fingerprintHash: UInt64(day), line: day + 1)
      }
    }
    let rows = try made.expenses()
    try made.writer.close()
    try FutureSchema.execute(
      path: path,
      """
      DROP INDEX \(AppDatabase.datedIndex);
      DROP TABLE transferPair;
      DELETE FROM grdb_migrations WHERE identifier IN ('v8-dated', 'v9-transfer-pairs');
      PRAGMA user_version = 7;
      """)
    let opened = try AppDatabase(path: path, access: .read)
    #expect(FileManager.default.fileExists(atPath: "\(path).before-v\(AppDatabase.schemaVersion)"), "a copy first")
    let (index, version) = try opened.read { db in
      (
        try String.fetchOne(
          db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [AppDatabase.datedIndex]),
        try Int.fetchOne(db, sql: "PRAGMA user_version")
      )
    }
    #expect(index?.contains("WHERE date IS NOT NULL") == true)
    #expect(version == AppDatabase.schemaVersion)
    #expect(try opened.expenses() == rows)
  }

  @Test func anImportThatWouldPassTheLimitNamesTheSumAndWritesNothing() throws {
    // The rollup's sums go in one statement: the one past the limit is named all the same.
    let db = try AppDatabase()
    let date = try CivilDate.parse("2026-10-01")
    func importRows(_ file: String) throws {
      try db.importRows(sourceFile: file) { feeder in
        for (i, category) in ["Alpha", "Beta", "Gamma", "Delta"].enumerated() {
          let minor = category == "Gamma" ? -(MonthTotalDeltas.limit / 2 + 1) : -100
          try feeder.insert(
            date: date.adding(days: i), amount: Money(minor: minor, currency: .usd), description: "\(file) \(i)",
            category: category, account: nil, fingerprintHash: UInt64(i + 1) &* 7_919 &+ UInt64(file.utf8.count),
            line: i + 2)
        }
      }
    }
    try importRows("first.csv")
    #expect {
      try importRows("second.csv")
    } throws: { error in
      guard let overflow = error as? TotalOverflow else { return false }
      return overflow.month == "2026-10" && overflow.category == "Gamma" && overflow.currency == "USD"
    }
    #expect(try db.expenses().count == 4, "nothing of the second file is stored")
    let totals = try db.monthlyTotals(from: date.calendarMonth, through: date.calendarMonth)
    #expect(totals.map(\.outflowMinor).sorted() == [100, 100, 100, MonthTotalDeltas.limit / 2 + 1])
  }

  @Test func rollupSumsStopAtTheLimitInsteadOfOverflowing() throws {
    let db = try AppDatabase()
    let date = try CivilDate.parse("2026-10-01")
    let big = Money(minor: -(MonthTotalDeltas.limit / 2 + 1), currency: .usd)
    try db.addExpense(Expense(date: date, amount: big, description: "a"))
    #expect(throws: TotalOverflow.self) { try db.addExpense(Expense(date: date, amount: big, description: "b")) }
    #expect(throws: TotalOverflow.self) {
      try db.addExpense(Expense(date: date, amount: Money(minor: .min, currency: .usd), description: "c"))
    }
    #expect(try db.expenses().count == 1, "the refused rows are not stored")
    let totals = try db.monthlyTotals(from: date.calendarMonth, through: date.calendarMonth)
    #expect(totals.map(\.outflowMinor) == [MonthTotalDeltas.limit / 2 + 1])
  }
}

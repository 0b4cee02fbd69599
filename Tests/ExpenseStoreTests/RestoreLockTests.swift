import ExpenseCore
import Foundation
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// A restore that keeps the previous database keeps it by reading the live file under the
/// write lock. On Linux, closing any descriptor of a file drops every POSIX lock the process
/// holds on it, SQLite's included: had the restore opened the file by hand, a `sqlite3` run by
/// someone else afterwards would take itself for the last user and delete the `-wal` that this
/// process's other connection (a server's) still writes to, and that connection's later commits
/// would be lost. This drives exactly that sequence.
@Suite struct RestoreLockTests {
  @Test func aRestoreKeepingThePreviousFileKeepsThisProcesssLocks() throws {
    guard let sqlite3 = ["/usr/bin/sqlite3", "/bin/sqlite3"].first(where: FileManager.default.isExecutableFile)
    else {
      Issue.record("sqlite3 is missing: scripts/test installs it (Debian package sqlite3)")
      return
    }
    let check = CheckTests()
    let (server, path) = try check.makeDatabase()
    defer { check.cleanUp(path) }
    let copy = path + ".copy"
    try server.backup(into: copy)
    try server.addExpense(
      Expense(date: try CivilDate.parse("2026-10-05"), amount: Money(minor: -1, currency: .usd), description: "Late"))

    let outcome = try AppDatabase.restore(
      databaseAt: path, from: copy, keepingPreviousIn: path + ".before-restore", wait: 5)
    #expect(outcome.keptPrevious && !outcome.replacedFile)
    #expect(try AppDatabase(path: path + ".before-restore", access: .read).expenseCount() == 4, "the old rows kept")

    // Another process opens the file, reads and closes, as a second user would.
    func count() throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: sqlite3)
      process.arguments = [path, "SELECT count(*) FROM expense;"]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try count() == "3", "the restored rows")
    #expect(FileManager.default.fileExists(atPath: path + "-wal"), "this process's -wal is still there")

    // The long-lived connection writes on; another process sees the write.
    try server.addExpense(
      Expense(date: try CivilDate.parse("2026-10-06"), amount: Money(minor: -2, currency: .usd), description: "After"))
    #expect(try count() == "4", "a commit after the restore reaches the file other processes read")
  }
}

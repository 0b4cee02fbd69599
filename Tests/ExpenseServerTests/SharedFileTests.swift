import ExpenseCore
import ExpenseSQLite
import ExpenseStore
import Foundation
import Testing

@testable import ExpenseServer

/// The server's file stays whole while other processes read it. On Linux, closing any descriptor
/// of a file drops every POSIX lock the process holds on it, SQLite's included: a server that
/// once opened its own database by hand (to read its header) let a `sqlite3` run by someone else
/// believe it was the last user and delete the server's `-wal`, and every later commit of the
/// server went to a deleted file (answered 200, lost). This drives exactly that sequence.
@Suite struct SharedFileTests {
  @Test func writesAfterAnotherProcessReadTheFileAreKept() async throws {
    guard let sqlite3 = ["/usr/bin/sqlite3", "/bin/sqlite3"].first(where: FileManager.default.isExecutableFile)
    else {
      Issue.record("sqlite3 is missing: scripts/test installs it (Debian package sqlite3)")
      return
    }
    let harness = try ServerHarness()
    try await harness.run { client in
      let first = try await client.call(
        .put, "/v1/budgets/Groceries", json: #"{"amountMinor":40000,"currency":"USD"}"#)
      #expect(first.status == 200)

      // Another process opens the file, reads, and closes: as a second user would.
      let process = Process()
      process.executableURL = URL(fileURLWithPath: sqlite3)
      process.arguments = [harness.path, "SELECT count(*) FROM budget;"]
      process.standardOutput = Pipe()
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      #expect(FileManager.default.fileExists(atPath: harness.path + "-wal"), "the server's -wal is still there")

      let second = try await client.call(
        .put, "/v1/budgets/Rent", json: #"{"amountMinor":120000,"currency":"USD"}"#)
      #expect(second.status == 200)
    }
    // A new connection, as the next process would open it, sees both writes.
    let reopened = try AppDatabase(path: harness.path, access: .read)
    #expect(try reopened.budgets().map(\.category).sorted() == ["Groceries", "Rent"])
  }
}

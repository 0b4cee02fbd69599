import ExpenseCore
import ExpenseStore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ExpensePostgres

/// Two stores on one database, as two `expenses serve` processes hold them: an Idempotency-Key
/// runs once whoever asks (`runOnce`) and a dead runner frees its key (`atomically` is
/// `WriteSessionContractTests`', on every shared store). Each store is its own connection.
@Suite struct SharedDatabaseTests {
  static let answer = IdempotentResponse(requestHash: "h", status: 201, body: Data(#"{"new":2}"#.utf8))
  static let time = "2026-10-02T00:00:00Z"

  static func twoStores() throws -> (PostgresStore, PostgresStore) {
    let url = try PostgresServer.shared().makeDatabase()
    return (try PostgresStore(url: url), try PostgresStore(url: url))
  }

  /// Two rows of October 2026 through the store's import writer.
  static func importTwoRows(_ store: PostgresStore, file: String) throws {
    _ = try store.importRows(sourceFile: file, dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      for (index, text) in ["coffee", "bread"].enumerated() {
        let row = ImportedRow(
          line: index + 2, date: CivilDate(year: 2026, month: 10, day: index + 1)!,
          amount: Money(minor: -500, currency: .usd), description: text, category: "Food", account: file,
          fingerprintHash: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(file.utf8.count))
        if let batch = try batcher.add(row) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
    }
  }

  /// A report's reads (`consistently`) see one state: rows another process commits between
  /// them are not seen, by the counts or by the streamed rows, until the read ends.
  @Test func aConsistentReadSeesOneStateWhateverCommitsMeanwhile() throws {
    let (a, b) = try Self.twoStores()
    try Self.importTwoRows(a, file: "first.csv")
    let (first, second, streamed) = try a.consistently {
      let first = try a.expenseCount(month: nil)
      try Self.importTwoRows(b, file: "second.csv")
      let second = try a.expenseCount(month: nil)
      var streamed = 0
      try a.withExpenseSnapshot { snapshot in try snapshot.forEachExpense(ExpenseQuery()) { _ in streamed += 1 } }
      return (first, second, streamed)
    }
    #expect(first == 2 && second == 2 && streamed == 2, "one state throughout the read")
    #expect(try a.expenseCount(month: nil) == 4, "the other process's rows after it")
    #expect(try b.expenseCount(month: nil) == 4)
  }

  @Test func aKeyRunsOnceWhicheverStoreAsks() throws {
    let (a, b) = try Self.twoStores()
    let outcome = try a.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
      try Self.importTwoRows(a, file: "bank.csv")
      // While A runs the key, B is told so at once (no wait behind A's transaction) and sees
      // neither the rows nor an answer.
      let during = try b.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
        Issue.record("B ran a key A is running")
        return Self.answer
      }
      #expect(during == .running)
      #expect(try b.idempotentResponse(token: "t", key: "k") == nil)
      #expect(try b.expenseCount(month: nil) == 0)
      return Self.answer
    }
    #expect(outcome == .ran(Self.answer))
    let after = try b.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
      Issue.record("B ran a finished key again")
      return Self.answer
    }
    #expect(after == .stored(Self.answer))
    #expect(try b.expenseCount(month: nil) == 2, "the import committed with its answer")
    #expect(try b.imports().count == 1)
    #expect(
      try b.runOnce(token: "other", key: "k", requestHash: "h", at: Self.time) { Self.answer } == .ran(Self.answer),
      "keys are per token")
  }

  @Test func aFailedRunKeepsNothingAndFreesItsKey() throws {
    let (a, b) = try Self.twoStores()
    struct Failed: Error {}
    #expect(throws: Failed.self) {
      try a.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
        try Self.importTwoRows(a, file: "bank.csv")
        throw Failed()
      }
    }
    #expect(try b.expenseCount(month: nil) == 0, "the import went with the failure")
    let retry = try b.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
      try Self.importTwoRows(b, file: "bank.csv")
      return Self.answer
    }
    #expect(retry == .ran(Self.answer))
    #expect(try a.expenseCount(month: nil) == 2)
  }

  /// A server killed in the middle of a key: its connection ends (closed here as a killed
  /// process's kernel closes it), PostgreSQL rolls its transaction back and drops the key's
  /// lock, and the retry on another store runs the key.
  @Test func aRunnerWhoseConnectionEndsFreesItsKey() throws {
    let (a, b) = try Self.twoStores()
    var retried: IdempotentOutcome?
    #expect(throws: StoreError.self, "A's own end fails: its connection is gone") {
      try a.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
        try Self.importTwoRows(a, file: "bank.csv")
        try a.connection.connection.close().wait()
        let deadline = Date().addingTimeInterval(10)
        repeat {
          retried = try b.runOnce(token: "t", key: "k", requestHash: "h", at: Self.time) {
            try Self.importTwoRows(b, file: "bank.csv")
            return Self.answer
          }
          if retried != .running { break }
          Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return Self.answer
      }
    }
    #expect(retried == .ran(Self.answer))
    #expect(try b.expenseCount(month: nil) == 2, "one import: the dead one's rows went with it")
    #expect(try b.imports().count == 1)
  }
}

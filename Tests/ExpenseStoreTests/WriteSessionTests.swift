import ExpenseCore
import ExpenseSQLite
import ExpenseStore
import Foundation
import Synchronization
import Testing

/// `atomically` on a SQLite file, with two connections as two processes hold them: another
/// writer never slips between a check and the update it guards, nothing of a body that throws
/// is kept, and the store's own calls inside (reads, writes, a dry-run and a real import) join
/// the one transaction.
@Suite final class WriteSessionTests {
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  func twoConnections() throws -> (AppDatabase, AppDatabase) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    folders.append(folder.path)
    let path = folder.appendingPathComponent("db.sqlite").path
    return (try AppDatabase(path: path), try AppDatabase(path: path))
  }

  @Test func anotherWriterWaitsUntilTheCheckAndItsUpdateCommitted() throws {
    let (a, b) = try twoConnections()
    let bDone = Atomic<Bool>(false)
    let finished = DispatchSemaphore(value: 0)
    try a.atomically {
      #expect(try a.sectionStates().isEmpty)
      Thread.detachNewThread {
        try? b.saveSectionStates(["trends": false])
        bDone.store(true, ordering: .sequentiallyConsistent)
        finished.signal()
      }
      Thread.sleep(forTimeInterval: 0.3)
      let wroteMeanwhile = bDone.load(ordering: .sequentiallyConsistent)
      #expect(!wroteMeanwhile, "B wrote between A's check and A's update")
      try a.saveSectionStates(["trends": true, "expenses": true])
    }
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(try a.sectionStates() == ["trends": false, "expenses": true], "B's write came after A's")
  }

  @Test func nothingOfABodyThatThrowsIsKept() throws {
    let (a, b) = try twoConnections()
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try a.atomically {
        try a.saveSectionStates(["trends": false])
        _ = try a.addExpense(
          Expense(
            date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: -500, currency: .usd),
            description: "coffee"))
        #expect(try a.expenseCount(month: nil) == 1, "a read inside sees the session's own write")
        throw Refused()
      }
    }
    #expect(try b.sectionStates().isEmpty)
    #expect(try b.expenseCount(month: nil) == 0)
  }

  @Test func importsInsideJoinTheSession() throws {
    let (a, b) = try twoConnections()
    try a.atomically {
      _ = try (a as any LedgerStore).importRows(sourceFile: "dry.csv", dryRun: true, explainLimit: 0, importedAt: nil) {
        _ in
      }
      try a.saveSectionStates(["trends": false])
    }
    #expect(try b.sectionStates() == ["trends": false])
    #expect(try b.imports().isEmpty, "a dry run inside keeps nothing")
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try a.atomically {
        _ = try (a as any LedgerStore).importRows(
          sourceFile: "bank.csv", dryRun: false, explainLimit: 0, importedAt: nil
        ) { writer in
          var batcher = ImportBatcher()
          let row = ImportedRow(
            line: 2, date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: -500, currency: .usd),
            description: "coffee", category: "Food", account: nil, fingerprintHash: 42)
          if let batch = try batcher.add(row) { try writer.write(batch) }
          if let batch = try batcher.finish() { try writer.write(batch) }
        }
        #expect(try a.expenseCount(month: nil) == 1)
        throw Refused()
      }
    }
    #expect(try b.expenseCount(month: nil) == 0, "the import went with the session")
    #expect(try b.imports().isEmpty)
    #expect(try b.check().isHealthy)
  }
}

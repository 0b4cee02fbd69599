import ExpenseCore
import ExpensePostgres
import ExpenseSQLite
import ExpenseStore
import Foundation
import Synchronization
import TestSupport
import Testing

/// `atomically` on every store that two processes can share, with two connections to one
/// database as two processes hold them (a SQLite file; a PostgreSQL database): another writer
/// never slips between a check and the update it guards, nothing of a body that throws is
/// kept, and the store's own calls inside (reads, writes, a dry-run and a real import) join
/// the one transaction.
@Suite struct WriteSessionContractTests {
  enum Shared: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqliteFile
    case postgres

    var testDescription: String { rawValue }

    static var allCases: [Shared] { TestTier.postgres ? [.sqliteFile, .postgres] : [.sqliteFile] }

    /// Two connections to one new database (files go in `folder`).
    func twoConnections(in folder: ServiceTests.Folder) throws -> (any LedgerStore, any LedgerStore) {
      switch self {
      case .sqliteFile: return (try AppDatabase(path: folder.database), try AppDatabase(path: folder.database))
      case .postgres:
        let url = try PostgresServer.shared().makeDatabase()
        return (try PostgresStore(url: url), try PostgresStore(url: url))
      }
    }
  }

  static func coffee(_ writer: any ImportWriter) throws {
    var batcher = ImportBatcher()
    let row = ImportedRow(
      line: 2, date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: -500, currency: .usd),
      description: "coffee", category: "Food", account: nil, fingerprintHash: 42)
    if let batch = try batcher.add(row) { try writer.write(batch) }
    if let batch = try batcher.finish() { try writer.write(batch) }
  }

  @Test(arguments: Shared.allCases)
  func anotherWriterWaitsUntilTheCheckAndItsUpdateCommitted(_ shared: Shared) throws {
    let folder = try ServiceTests.Folder()
    let (a, b) = try shared.twoConnections(in: folder)
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

  @Test(arguments: Shared.allCases)
  func nothingOfABodyThatThrowsIsKept(_ shared: Shared) throws {
    let folder = try ServiceTests.Folder()
    let (a, b) = try shared.twoConnections(in: folder)
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

  @Test(arguments: Shared.allCases)
  func importsInsideJoinTheSession(_ shared: Shared) throws {
    let folder = try ServiceTests.Folder()
    let (a, b) = try shared.twoConnections(in: folder)
    try a.atomically {
      _ = try a.importRows(sourceFile: "dry.csv", dryRun: true, explainLimit: 0, importedAt: nil) { _ in }
      try a.saveSectionStates(["trends": false])
    }
    #expect(try b.sectionStates() == ["trends": false])
    #expect(try b.imports().isEmpty, "a dry run inside keeps nothing")
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try a.atomically {
        _ = try a.importRows(sourceFile: "bank.csv", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
          try Self.coffee(writer)
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

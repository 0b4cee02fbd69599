import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// `ExpenseService.open` with a `postgres://` URL: what `--db` and `$EXPENSES_DB` give it.
@Suite(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason))) struct PostgresServiceTests {
  @Test func aURLOpensThePostgresStore() throws {
    let url = try PostgresServer.shared().makeDatabase()
    #expect(throws: StoreError.self, "a reader finds no schema in a new database") {
      try ExpenseService.open(path: url, access: .read)
    }
    let service = try ExpenseService.open(path: url, access: .write)
    #expect(service.store.filePath == nil)
    let folder = try ServiceTests.Folder()
    let summary = try ImportService(store: service.store).run(
      ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank)))
    #expect(summary.new == 4 && summary.importId != nil)
    let reader = try ExpenseService.open(path: url, access: .read)
    #expect(try reader.store.expenseCount(month: nil) == 4)
    #expect(throws: StoreError.self, "a reader writes nothing") { try reader.store.setSetting("accordion", "on") }
  }

  /// A dry run reads a snapshot: while another session holds the ledger's lock (as every
  /// writer takes it), the dry run answers at once, counting what the import would, and writes
  /// nothing. Before, it took the lock itself and waited.
  @Test func aDryRunNeverWaitsForTheLedgersLock() throws {
    let url = try PostgresServer.shared().makeDatabase()
    let service = try ExpenseService.open(path: url, access: .write)
    let folder = try ServiceTests.Folder()
    _ = try service.importFile(ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank)))
    let more = try folder.file("more.csv", ServiceTests.bank + "\n2026-10-09,Books,-20.00,\n")
    let holder = try ExpenseService.open(path: url, access: .write)
    let finished = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<ImportSummary, any Error>?>(nil)
    let dryService = try ExpenseService.openForDryRun(path: url)
    let whileHeld = try holder.store.atomically {
      Thread.detachNewThread {
        var request = ImportRequest(path: more)
        request.dryRun = true
        outcome.set(Result { try dryService.importFile(request) })
        finished.signal()
      }
      return finished.wait(timeout: .now() + 20) == .success
    }
    #expect(whileHeld, "the dry run finished while the ledger's lock was held")
    if !whileHeld { _ = finished.wait(timeout: .now() + 60) }
    let summary = try #require(try outcome.get()?.get())
    #expect(summary.new == 1 && summary.duplicates == 4)
    #expect(try service.store.expenseCount(month: nil) == 4, "nothing was written")
  }

  @Test func aURLIsShownWithoutItsPassword() {
    #expect(ExpenseService.shown(path: "postgres://me:s3cret@db:5433/books") == "postgres://me@db:5433/books")
    #expect(ExpenseService.shown(path: "/tmp/x.sqlite") == "/tmp/x.sqlite")
  }
}

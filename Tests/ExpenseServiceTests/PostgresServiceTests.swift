import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import TestSupport
import Testing

/// `ExpenseService.open` with a `postgres://` URL: what `--db` and `$EXPENSES_DB` give it.
@Suite struct PostgresServiceTests {
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

  @Test func aURLIsShownWithoutItsPassword() {
    #expect(ExpenseService.shown(path: "postgres://me:s3cret@db:5433/books") == "postgres://me@db:5433/books")
    #expect(ExpenseService.shown(path: "/tmp/x.sqlite") == "/tmp/x.sqlite")
  }
}

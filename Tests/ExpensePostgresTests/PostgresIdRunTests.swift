import ExpenseCore
import ExpenseStore
import Foundation
import TestSupport
import Testing

@testable import ExpensePostgres

/// Schema "v7-id-runs": after every kind of write (an import in no date order, rows by hand,
/// an edit that moves a row to another day, deletes, an undo, an import removed), every
/// stored expense is found by its id, and its id lies in exactly one run of its ledger whose
/// day is its key's day.
@Suite(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
struct PostgresIdRunTests {
  /// Rows of `days` (offsets from 2026-09-01), numbered in file order.
  static func importRows(_ store: PostgresStore, file: String, days: [Int], seed: UInt64) throws {
    _ = try store.importRows(sourceFile: file, dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      let first = try CivilDate.parse("2026-09-01")
      for (index, day) in days.enumerated() {
        let row = ImportedRow(
          line: index + 2, date: first.adding(days: day), amount: Money(minor: Int64(-100 - index), currency: .usd),
          description: "row \(index)", category: nil, account: nil,
          fingerprintHash: (seed &+ UInt64(index)) &* 0x9E37_79B9_7F4A_7C15)
        if let batch = try batcher.add(row) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
    }
  }

  /// Every stored row found by its id, and the runs' invariant.
  static func expectRunsHold(_ store: PostgresStore, _ comment: Comment) throws {
    let stored = try store.read { connection in
      try connection.query("SELECT id, key FROM expense WHERE ledger_id = \(store.ledger) ORDER BY id")
        .map { try $0.decode((Int64, Int64).self) }
    }
    for (id, key) in stored {
      let found = try store.read { connection in
        try connection.query("SELECT expense_key_of(\(store.ledger), \(id))").first?.decode(Int64?.self)
      }
      #expect(found == key, "id \(id): \(comment)")
      let holding = try store.read { connection in
        try connection.query(
          """
          SELECT day FROM expense_id_run WHERE ledger_id = \(store.ledger) AND first_id <= \(id) AND last_id >= \(id)
          """
        ).map { try $0.decode(Int64.self) }
      }
      #expect(holding == [ExpenseKey(rawValue: key).day], "id \(id) in one run of its day: \(comment)")
    }
    #expect(try store.expenseCount(month: nil) == stored.count)
  }

  @Test func everyWriteKeepsEachIdInOneRunOfItsDay() throws {
    let store = try PostgresStore(location: try RowLevelSecurityTests.ownedDatabase())
    // In date order (few runs), then in no order (a run a row or so).
    try Self.importRows(store, file: "ordered.csv", days: Array(0..<40).map { $0 / 3 }, seed: 1)
    try Self.importRows(store, file: "shuffled.csv", days: (0..<40).map { ($0 * 17) % 23 }, seed: 500)
    try Self.expectRunsHold(store, "after two imports")
    let hand = try store.addExpense(
      Expense(
        date: try CivilDate.parse("2026-09-05"), amount: Money(minor: -250, currency: .usd), description: "by hand"))
    // An edit to another day, inside a run and at its ends.
    for id in [Int64(5), 1, 40, hand.id ?? 0] {
      _ = try store.editExpense(id: id, ExpenseEdit(date: try CivilDate.parse("2026-10-20")))
    }
    try Self.expectRunsHold(store, "after edits")
    let snapshot = try store.rowSnapshot(ids: [7, 8])
    _ = try store.deleteExpenses(ids: [7, 8], wholeSplits: false)
    #expect(try store.expense(id: 7) == nil)
    try store.restoreRows(snapshot)
    try Self.expectRunsHold(store, "after a delete undone")
    let imports = try store.imports()
    let removed = try #require(imports.first { $0.file == "shuffled.csv" })
    #expect(try store.removeImport(id: removed.id) == 40)
    try Self.expectRunsHold(store, "after an import removed")
    #expect(try store.expense(id: 45) == nil, "a removed row is not found by its id")
  }

  /// A new ledger "copy" of `location`'s database, loaded with `home`'s contents as `expenses
  /// copy` loads one.
  static func copy(_ home: PostgresStore, at location: PostgresLocation) throws -> PostgresStore {
    try home.createLedger("copy", at: RowLevelSecurityTests.time)
    let copy = try PostgresStore(
      pool: PostgresPool(location: location, size: 1, wait: 10), ledger: "copy", access: .write)
    try home.readLedger { contents, reader in
      try copy.loadLedger(contents) { sink in try reader.forEachBatch(sink) }
    }
    return copy
  }

  @Test func aCopiedLedgerFindsEveryRowByItsId() throws {
    let location = try RowLevelSecurityTests.ownedDatabase()
    let home = try PostgresStore(location: location)
    try Self.importRows(home, file: "bank.csv", days: (0..<30).map { ($0 * 7) % 11 }, seed: 9)
    _ = try home.editExpense(id: 3, ExpenseEdit(date: try CivilDate.parse("2026-12-01")))
    let copy = try Self.copy(home, at: location)
    try Self.expectRunsHold(copy, "in the copy")
    #expect(try copy.expense(id: 3)?.date == (try CivilDate.parse("2026-12-01")))
  }
}

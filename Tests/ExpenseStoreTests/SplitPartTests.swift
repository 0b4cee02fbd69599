import ExpenseCore
import Foundation
import GRDB
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// The parts of a split transaction stay together: deleted only all at once, amount and date
/// never changed alone, the rest of each part its own; imports, removals and dry runs keep
/// `splitPart` exact.
@Suite struct SplitPartTests {
  func usd(_ minor: Int64) -> Money { Money(minor: minor, currency: .usd) }
  let day = try! CivilDate.parse("2026-11-02")

  /// Imports `rows` (amount, split group, fingerprint) from `file`; returns the rows added.
  @discardableResult
  func load(_ db: AppDatabase, _ rows: [(Int64, Int, UInt64)], file: String = "a.qif", dryRun: Bool = false) throws
    -> Int
  {
    let feeder = try db.importRows(sourceFile: file, dryRun: dryRun) { feeder in
      for (line, row) in rows.enumerated() {
        try feeder.insert(
          date: day, amount: usd(row.0), description: "Superstore \(row.2)", category: "C\(row.2)", account: nil,
          fingerprintHash: row.2, line: line + 2, splitGroup: row.1)
      }
      return feeder
    }
    return feeder.inserted
  }

  func sets(_ db: AppDatabase) throws -> [[Int64]] {
    try db.read { db in
      let rows = try Row.fetchAll(db, sql: "SELECT id, setId FROM splitPart ORDER BY setId, id")
      return Dictionary(grouping: rows, by: { $0["setId"] as Int64 }).sorted { $0.key < $1.key }.map {
        $0.value.map { $0["id"] as Int64 }
      }
    }
  }

  /// Three parts of one record, one ordinary row, two parts of another record.
  let statement: [(Int64, Int, UInt64)] = [
    (-120, 1, 11), (-45, 1, 12), (-20, 1, 13), (-500, 0, 14), (2600, 2, 15), (-600, 2, 16),
  ]

  @Test func anImportRecordsEachSplitAsOneSet() throws {
    let db = try AppDatabase()
    #expect(try load(db, statement) == 6)
    #expect(try sets(db) == [[1, 2, 3], [5, 6]])
    #expect(try load(db, statement, file: "again.qif") == 0)
    #expect(try sets(db) == [[1, 2, 3], [5, 6]], "duplicates add no set")
  }

  @Test func aDryRunRecordsNothing() throws {
    let db = try AppDatabase()
    #expect(try load(db, statement, dryRun: true) == 6)
    #expect(try sets(db).isEmpty && db.expenseCount(month: nil) == 0)
  }

  @Test func onePartAloneIsNotDeleted() throws {
    let db = try AppDatabase()
    try load(db, statement)
    let error = StoreError.splitPart(id: 2, parts: [1, 2, 3], change: .delete)
    #expect(throws: error) { try db.deleteExpenses(ids: [2]) }
    #expect(throws: error) { try db.deleteExpenses(ids: [2, 4]) }
    #expect(throws: StoreError.splitPart(id: 5, parts: [5, 6], change: .delete)) {
      try db.deleteExpenses(ids: [1, 2, 3, 5])
    }
    #expect(try db.expenseCount(month: nil) == 6, "a refused delete changes nothing")
    #expect(
      error.description
        == "expense 2 is one part of a split transaction (expenses 1 2 3): deleting it alone would leave the bank's amount short; delete all parts together ('expenses delete 1 2 3' or '--whole-split'); nothing was changed"
    )
    #expect(error.kind == .conflict)
  }

  @Test func allPartsNamedOrWholeSplitDeleteTheSet() throws {
    let db = try AppDatabase()
    try load(db, statement)
    #expect(try db.deleteExpenses(ids: [3, 1, 2]).compactMap(\.id) == [3, 1, 2])
    #expect(try sets(db) == [[5, 6]])
    #expect(try db.deleteExpenses(ids: [6], wholeSplits: true).compactMap(\.id) == [6, 5])
    #expect(try sets(db).isEmpty)
    #expect(try db.expenses().compactMap(\.id) == [4])
    #expect(try db.check().problems.isEmpty, "the rollup followed every part")
    #expect(try db.deleteExpenses(ids: [4], wholeSplits: true).count == 1, "an ordinary row has no other parts")
  }

  @Test func aPartKeepsItsAmountAndDateButNotItsCategory() throws {
    let db = try AppDatabase()
    try load(db, statement)
    let refused = StoreError.splitPart(id: 1, parts: [1, 2, 3], change: .amountOrDate)
    #expect(throws: refused) { try db.editExpense(id: 1, ExpenseEdit(amountMinor: -100)) }
    #expect(throws: refused) { try db.editExpense(id: 1, ExpenseEdit(date: day.adding(days: 1))) }
    #expect(try db.expense(id: 1)?.amount.minor == -120)
    let same = try db.editExpense(id: 1, ExpenseEdit(date: day, amountMinor: -120, category: "Food"))
    #expect(same.category == "Food" && same.amount.minor == -120, "the same amount and date are no change")
    #expect(try db.editExpense(id: 2, ExpenseEdit(description: "Bulbs")).description == "Bulbs")
    #expect(try db.editExpense(id: 4, ExpenseEdit(amountMinor: -1)).amount.minor == -1, "ordinary rows change freely")
    #expect(try sets(db) == [[1, 2, 3], [5, 6]])
  }

  @Test func removingTheImportForgetsItsSets() throws {
    let db = try AppDatabase()
    try load(db, statement)
    let record = try #require(try db.imports().first)
    #expect(try db.removeImport(id: record.id) == 6)
    #expect(try sets(db).isEmpty)
    try load(db, statement)
    #expect(try sets(db) == [[7, 8, 9], [11, 12]], "the new parts form new sets")
    #expect(throws: StoreError.splitPart(id: 7, parts: [7, 8, 9], change: .delete)) { try db.deleteExpenses(ids: [7]) }
  }

  @Test func aPartAlreadyStoredLeavesTheRestTogether() throws {
    let db = try AppDatabase()
    try load(db, [(-120, 1, 11)], file: "first.qif")  // one part, alone: no set
    #expect(try sets(db).isEmpty)
    try load(db, [(-120, 1, 11), (-45, 1, 12), (-20, 1, 13), (-5, 2, 17), (-7, 3, 18), (-6, 3, 11)], file: "b.qif")
    #expect(try sets(db) == [[2, 3]], "the new parts of a set; a set with one new part is an ordinary row")
  }
}

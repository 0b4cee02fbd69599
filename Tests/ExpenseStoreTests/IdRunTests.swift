import ExpenseCore
import Foundation
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// Finding an expense by id goes through `idRun` (one run of ids per day of an import) and a
/// day's key range: no table scan, and no index entry per row.
@Suite struct IdRunTests {
  func date(_ text: String) -> CivilDate { try! CivilDate.parse(text) }

  func runCount(_ db: AppDatabase) throws -> Int {
    try db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM idRun") ?? 0 }
  }

  @Test func aFileInDateOrderGivesOneRunPerDayAndEveryIdIsFound() throws {
    let db = try AppDatabase()
    let days = ["2026-10-03", "2026-10-02", "2026-10-01"]  // newest first, like many bank exports
    try db.importRows(sourceFile: "bank.csv") { session in
      for (index, day) in days.enumerated() {
        for n in 0..<10 {
          try session.insert(
            date: date(day), amount: Money(minor: -Int64(n + 1), currency: .usd), description: "\(day) \(n)",
            category: nil, account: nil, fingerprintHash: UInt64(index * 100 + n), line: index * 10 + n + 2)
        }
      }
    }
    #expect(try runCount(db) == 3)
    try db.addExpense(Expense(date: date("2026-10-02"), amount: Money(minor: -1, currency: .usd), description: "hand"))
    // Moving id 15 to another day splits its run: 11...14, 15, 16...20.
    try db.editExpense(id: 15, ExpenseEdit(date: date("2026-11-30")))
    #expect(try runCount(db) == 3 + 1 + 2)
    for id in Int64(1)...31 {
      #expect(try db.expense(id: id)?.id == id, "id \(id) is found")
    }
    #expect(try db.expense(id: 15)?.date == date("2026-11-30"))
    #expect(try db.expense(id: 32) == nil)
  }

  @Test func lookupsSearchByKeyAndNeverScan() throws {
    let db = try AppDatabase()
    let plans = try [
      "SELECT firstId, lastId, day FROM idRun WHERE firstId <= 5 ORDER BY firstId DESC LIMIT 1",
      "SELECT key FROM expense WHERE key BETWEEN 1 AND 2 AND id = 5",
      "SELECT firstId, lastId, day FROM idRun WHERE firstId BETWEEN 1 AND 9",
      "SELECT date FROM expense WHERE key BETWEEN 1 AND 2 AND id BETWEEN 5 AND 9",
      "DELETE FROM expenseRow WHERE key BETWEEN 1 AND 2 AND id BETWEEN 5 AND 9",
    ].map { sql in try db.queryPlan(sql) }
    for plan in plans {
      #expect(plan.contains("SEARCH") && !plan.contains("SCAN"), "\(plan)")
    }
  }
}

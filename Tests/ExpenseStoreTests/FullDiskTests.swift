import ExpenseCore
import Foundation
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// A full disk met by the batch insert of a large import (SQLite's page limit stands in for
/// the disk: the same SQLITE_FULL) is `.diskFull` naming the database, never a bare
/// "database error", and nothing of the import stays.
@Suite struct FullDiskTests {
  @Test func theBatchPathMapsAFullDiskToDiskFullNamingTheFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-store-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("db.sqlite").path
    let db = try AppDatabase(path: path)
    let day = try CivilDate.parse("2026-10-01")
    try db.addExpense(Expense(date: day, amount: Money(minor: -300, currency: .usd), description: "Tea"))
    let pages = try db.writer.read { try Int.fetchOne($0, sql: "PRAGMA page_count") ?? 0 }
    try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = \(pages + 8)") }
    var thrown: (any Error)?
    do {
      try db.importRows(sourceFile: "big.csv") { feeder in
        for i in 0..<20_000 {
          try feeder.insert(
            date: day, amount: Money(minor: -Int64(i) - 1, currency: .usd),
            description: "A shop with a long description number \(i)", category: nil, account: nil,
            fingerprintHash: UInt64(i) &* 0x9E37_79B9_7F4A_7C15, line: i + 2)
        }
      }
    } catch {
      thrown = error
    }
    #expect(thrown as? StoreError == .diskFull(path: path), "\(String(describing: thrown))")
    #expect(try db.expenseCount() == 1, "nothing of the import")
  }
}

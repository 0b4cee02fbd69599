import ExpenseCore
import ExpenseSQLite
import ExpenseStore
import Foundation
import Testing

/// The v3-kinds store: transfer kinds, the money-in count and the day-by-day outflows of the
/// monthly rollup, kept exact by every write path and rebuilt by the migration.
@Suite struct KindsRollupTests {
  func date(_ text: String) -> CivilDate { try! CivilDate.parse(text) }
  func usd(_ minor: Int64) -> Money { Money(minor: minor, currency: .usd) }

  /// The rollup as a recomputation from the stored rows alone would give it.
  func recomputed(_ db: AppDatabase, _ month: Month) throws -> [String: (out: Int64, count: Int, daily: [Int64])] {
    var result: [String: (out: Int64, count: Int, daily: [Int64])] = [:]
    for row in try db.expenses(month: month) {
      let name = row.category ?? ""
      var entry = result[name] ?? (0, 0, Array(repeating: 0, count: 31))
      if row.amount.minor < 0 {
        entry.out += -row.amount.minor
        entry.daily[row.date.day - 1] += -row.amount.minor
      }
      if row.amount.minor > 0 { entry.count += 1 }
      result[name] = entry
    }
    return result
  }

  func check(_ db: AppDatabase, _ month: Month) throws {
    let stored = try db.monthlyTotals(from: month, through: month, daily: true)
    let expected = try recomputed(db, month)
    #expect(stored.count == expected.count)
    for total in stored {
      let want = try #require(expected[total.category ?? ""])
      #expect(total.outflowMinor == want.out)
      #expect(total.inflowCount == want.count, "money-in rows of \(total.category ?? "-")")
      #expect(total.dailyOutflowMinor == want.daily, "days of \(total.category ?? "-")")
    }
  }

  @Test func importsAndHandAddedRowsKeepTheDaysExact() throws {
    let db = try AppDatabase()
    let october = try Month.parse("2026-10")
    _ = try db.importRows(sourceFile: "bank.csv") { session in
      let rows: [(String, Int64, String, String?)] = [
        ("2026-10-01", -150_000, "Rent", "Rent"), ("2026-10-03", -2500, "Shop", "Groceries"),
        ("2026-10-03", -1500, "Shop 2", "Groceries"), ("2026-10-15", 250_000, "Payroll", nil),
        ("2026-10-20", 300, "Refund", "Groceries"), ("2026-10-31", -999, "Late", nil),
        ("2026-10-03", -2500, "Shop", "Groceries"),  // same fingerprint as line 2: a duplicate
      ]
      for (index, row) in rows.enumerated() {
        try session.insert(
          date: date(row.0), amount: usd(row.1), description: row.2, category: row.3, account: nil,
          fingerprintHash: index == 6 ? 1 : UInt64(index), line: index + 2)
      }
      return session
    }
    try db.addExpense(Expense(date: date("2026-10-03"), amount: usd(-700), description: "Milk", category: "Groceries"))
    try check(db, october)
    let groceries = try #require(
      try db.monthlyTotals(from: october, through: october, daily: true).first { $0.category == "Groceries" })
    #expect(groceries.dailyOutflowMinor?[2] == 4700)  // 2500 + 1500 + 700 on the 3rd; the duplicate not counted
    #expect(groceries.inflowCount == 1)
    // Without `daily`, the blobs are not read.
    #expect(try db.monthlyTotals(from: october, through: october).allSatisfy { $0.dailyOutflowMinor == nil })

    // `rules apply` rebuilds the rollup from the rows: the same numbers, now under the new category.
    try db.addRule(pattern: "payroll", category: "Salary", field: .description)
    #expect(try db.applyRules() == 1)
    try check(db, october)
  }

  @Test func transferIsAKindAndTransfersIsOneByDefault() throws {
    let db = try AppDatabase()
    try db.setCategoryKind("Card payment", kind: .transfer)
    #expect(try db.categoryKinds()["Card payment"] == .transfer)
    try db.addExpense(
      Expense(date: date("2026-10-09"), amount: usd(-50000), description: "Payment", category: transfersName))
    let kinds = Dictionary(uniqueKeysWithValues: try db.categories().map { ($0.name, $0.kind) })
    #expect(kinds["Card payment"] == .transfer)
    #expect(kinds[transfersName] == .transfer)
    try db.setCategoryKind(transfersName, kind: .expense)
    #expect(try db.categories().first { $0.name == transfersName }?.kind == .expense)
  }

  @Test func builtInPatternsRecogniseOwnAccountMoves() {
    #expect(TransferPatterns.category(description: "PAYMENT THANK YOU") == transfersName)
    #expect(TransferPatterns.category(description: "AUTOPAY PAYMENT - THANK YOU") == transfersName)
    #expect(TransferPatterns.category(description: "Top-Up by *1234") == transfersName)
    #expect(TransferPatterns.category(description: "Online Transfer to SAV ...4411") == transfersName)
    #expect(TransferPatterns.category(description: "Payment to Chase card ending in 1234") == transfersName)
    #expect(TransferPatterns.category(description: "CARD PAYMENT TO TESCO") == nil)
    #expect(TransferPatterns.category(description: "WHOLEFDS MKT #10234") == nil)
    #expect(TransferPatterns.category(description: "ACME CORP PAYROLL PPD") == nil)
  }

  @Test func version1DatabasesGetTheDaysOnMigration() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("expenses-kinds-\(UUID().uuidString)/db.sqlite").path
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FutureSchema.writeVersion1(path: path)
    let db = try AppDatabase(path: path)
    try check(db, try Month.parse("2026-10"))
    let totals = try db.monthlyTotals(
      from: try Month.parse("2026-10"), through: try Month.parse("2026-10"), daily: true)
    #expect(totals.contains { ($0.dailyOutflowMinor ?? []).contains { $0 > 0 } })
  }
}

import ExpenseCore
import ExpenseSQLite
import ExpenseStore
import Foundation
import Testing

@Suite final class AppDatabaseTests {
  /// Folders made by `temporaryPath`, removed when the test's instance goes.
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  func date(_ text: String) -> CivilDate { try! CivilDate.parse(text) }
  func usd(_ minor: Int64) -> Money { Money(minor: minor, currency: .usd) }

  func temporaryPath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-store-\(UUID().uuidString)")
    folders.append(folder.path)
    return folder.appendingPathComponent("db.sqlite").path
  }

  @Test func importIsOneTransactionAndDropsDuplicates() throws {
    let db = try AppDatabase()
    let first = try db.importRows(sourceFile: "bank.csv") { session in
      try session.insert(
        date: date("2026-10-01"), amount: usd(-1250), description: "Coffee", category: nil, account: nil,
        fingerprintHash: 0xA, line: 2)
      try session.insert(
        date: date("2026-10-02"), amount: usd(-500), description: "Bus", category: "Transport", account: nil,
        fingerprintHash: 0xB, line: 3)
      return session
    }
    #expect((first.inserted, first.duplicates) == (2, 0))
    var outcomes: [Int: ImportSession.Outcome] = [:]
    let second = try db.importRows(sourceFile: "again.csv") { session in
      session.onOutcome = { outcomes[$0.line] = $1 }
      try session.insert(
        date: date("2026-10-01"), amount: usd(-1250), description: "Coffee", category: nil, account: nil,
        fingerprintHash: 0xA, line: 7)
      try session.insert(
        date: date("2026-10-03"), amount: usd(-1), description: "New", category: nil, account: nil,
        fingerprintHash: 0xA, line: 8)
      return session
    }
    #expect(outcomes == [7: .duplicate, 8: .inserted])
    #expect(second.explained == [ImportSession.Duplicate(line: 7, existingSource: "bank.csv:2")])
    #expect(try db.expenseCount() == 3)
    #expect(try db.expenses().map(\.id) == [3, 2, 1], "ids are small, sequential and never reused")

    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try db.importRows(sourceFile: "bad.csv") { session in
        try session.insert(
          date: date("2026-10-03"), amount: usd(-1), description: "x", category: nil, account: nil,
          fingerprintHash: 0xC,
          line: 2)
        try session.flush()
        throw Boom()
      }
    }
    #expect(try db.expenseCount() == 3, "a failed import writes nothing, even rows already flushed")

    let dry = try db.importRows(sourceFile: "dry.csv", dryRun: true) { session in
      try session.insert(
        date: date("2026-10-04"), amount: usd(-1), description: "y", category: nil, account: nil, fingerprintHash: 0xD,
        line: 2)
      return session
    }
    #expect(dry.inserted == 1)
    #expect(try db.expenseCount() == 3, "a dry run writes nothing")
  }

  /// A row redated since an earlier version stored it (a card payment dated when the card was
  /// used, where it was dated when booked) is found by its former key: a duplicate, in a dry
  /// run too, explained by the row stored then; without that key it would be stored twice.
  @Test func aRowStoredUnderItsFormerKeyIsADuplicate() throws {
    let db = try AppDatabase()
    _ = try db.importRows(sourceFile: "before.sta") { session in
      try session.insert(
        date: date("2026-10-05"), amount: usd(-2380), description: "Markthalle", category: nil, account: nil,
        fingerprintHash: 0x5A, line: 5)
    }
    let former = ExpenseKey(date: date("2026-10-05"), fingerprintHash: 0x5A).rawValue
    for dryRun in [true, false] {
      let again = try db.importRows(sourceFile: "after.sta", dryRun: dryRun) { session in
        try session.insert(
          date: date("2026-10-03"), amount: usd(-2380), description: "Markthalle / booked 2026-10-05", category: nil,
          account: nil, fingerprintHash: 0x5A, line: 5, formerKey: former)
        try session.insert(
          date: date("2026-10-03"), amount: usd(-100), description: "New card payment", category: nil, account: nil,
          fingerprintHash: 0x5B, line: 7,
          formerKey: ExpenseKey(date: date("2026-10-05"), fingerprintHash: 0x5B).rawValue)
        return session
      }
      #expect((again.inserted, again.duplicates) == (1, 1), "dry run: \(dryRun)")
      #expect(again.explained == [ImportSession.Duplicate(line: 5, existingSource: "before.sta:5")])
    }
    #expect(try db.expenseCount() == 2)
  }

  /// Many batches, in date order, shuffled, and with in-file key twins: the stored rows, the
  /// duplicate counts and the rollup are the same whatever the order.
  @Test func batchesFindDuplicatesInAnyOrder() throws {
    let rows = (0..<5000).map { i in
      (
        day: date("2020-01-01").adding(days: i / 7), hash: UInt64(i * 7919 % 4999), minor: Int64(-(i % 97) - 1),
        line: i + 2
      )
    }
    for shuffle in [false, true] {
      let db = try AppDatabase()
      // A fixed scramble: 2,999 is prime to 5,000, so i * 2,999 mod 5,000 visits every row once.
      let ordered = shuffle ? rows.indices.map { rows[$0 * 2999 % rows.count] } : rows
      let session = try db.importRows(sourceFile: "big.csv") { session in
        for row in ordered {
          try session.insert(
            date: row.day, amount: usd(row.minor), description: "d", category: "C", account: nil,
            fingerprintHash: row.hash, line: row.line)
        }
        return session
      }
      // Rows i and i + 4999 share a hash; they are twins only when on the same day (never here,
      // 4999 / 7 days apart), so every row is new...
      #expect(session.inserted == 5000, "shuffled: \(shuffle)")
      // Ids follow the file's order, whatever order the batches were written in.
      let byID = try db.expenses().sorted { $0.id! < $1.id! }
      #expect(byID.map { $0.source?.line } == ordered.map(\.line), "shuffled: \(shuffle)")
      // ...and a second import finds all of them, across batches, in one transaction.
      let again = try db.importRows(sourceFile: "big.csv") { session in
        for row in ordered.reversed() {
          try session.insert(
            date: row.day, amount: usd(row.minor), description: "d", category: "C", account: nil,
            fingerprintHash: row.hash, line: row.line)
        }
        try session.insert(
          date: rows[0].day, amount: usd(-5), description: "twin", category: "C", account: nil,
          fingerprintHash: 1 << 50 | rows[0].hash, line: 9999)  // same 43 low bits: same key
        return session
      }
      #expect(again.inserted == 0 && again.duplicates == 5001, "shuffled: \(shuffle)")
      let all = try db.monthlyTotals(from: try Month.parse("2020-01"), through: try Month.parse("2022-12"))
      #expect(all.reduce(0) { $0 + $1.count } == 5000)
      #expect(all.reduce(0) { $0 + $1.outflowMinor } == rows.reduce(0) { $0 - $1.minor })
    }
  }

  @Test func monthlyTotalsAggregateInSQL() throws {
    let db = try AppDatabase()
    try db.importRows(sourceFile: "f.csv") { session in
      var line = 1
      for (day, minor, category) in [
        ("2026-09-30", Int64(-100), "Food"), ("2026-10-01", -250, "Food"), ("2026-10-31", -50, "Food"),
        ("2026-10-15", 75, "Food"), ("2026-10-15", -999, nil), ("2026-11-01", -1, "Food"),
      ] {
        line += 1
        try session.insert(
          date: date(day), amount: usd(minor), description: "r\(line)", category: category, account: nil,
          fingerprintHash: UInt64(line), line: line)
      }
    }
    let totals = try db.monthlyTotals(from: try Month.parse("2026-10"), through: try Month.parse("2026-10"))
    let food = try #require(totals.first { $0.category == "Food" })
    #expect(food.outflowMinor == 300 && food.inflowMinor == 75 && food.count == 3 && food.spentMinor == 225)
    let none = try #require(totals.first { $0.category == nil })
    #expect(none.outflowMinor == 999)
    #expect(totals.count == 2)
    #expect(try db.historyStart() == [.usd: try Month.parse("2026-09")])
    #expect(try db.latestMonth() == (try Month.parse("2026-11")))
  }

  @Test func importKeysSortByDateAndKeepTheHash() throws {
    let early = ExpenseKey.raw(date: date("2026-10-01"), fingerprintHash: .max)
    let late = ExpenseKey.raw(date: date("2026-10-02"), fingerprintHash: 0)
    #expect(early < late && early > 0)
    #expect(
      ExpenseKey.raw(date: date("1900-01-01"), fingerprintHash: 1)
        != ExpenseKey.raw(date: date("1900-01-01"), fingerprintHash: 2))
  }

  @Test func budgetsOverrideAndRemove() throws {
    let db = try AppDatabase()
    try db.saveBudget(Budget(category: "Food", amount: usd(40000)))
    try db.saveBudget(Budget(category: "Food", amount: usd(45000)))  // replaces
    try db.saveBudget(Budget(category: "Food", amount: usd(90000), month: try Month.parse("2026-12")))
    #expect(try db.budgets().map(\.amount.minor) == [45000, 90000])
    #expect(throws: CoreError.negativeBudget("-1.00")) {
      try db.saveBudget(Budget(category: "Food", amount: usd(-100)))
    }
    try db.removeBudget(category: "Food", month: try Month.parse("2026-12"), currency: nil)
    #expect(try db.budgets().count == 1)
    #expect(throws: StoreError.budgetNotFound(category: "Food", month: try Month.parse("2026-12"))) {
      try db.removeBudget(category: "Food", month: try Month.parse("2026-12"), currency: nil)
    }
  }

  @Test func handAddedRowsAreNeverDuplicates() throws {
    let db = try AppDatabase()
    let coffee = Expense(date: date("2026-10-01"), amount: usd(-450), description: "Coffee")
    let a = try db.addExpense(coffee)
    let b = try db.addExpense(coffee)
    #expect(a.id != b.id)
    #expect(try db.expenseCount() == 2)
  }

  @Test func rulesCategorizeFirstMatchWins() throws {
    let db = try AppDatabase()
    try db.addRule(pattern: "whole foods", category: "Groceries", field: .description)
    try db.addRule(pattern: "amzn*mktp", category: "Shopping", field: .description)
    try db.addRule(pattern: "foods", category: "Never", field: .description)
    try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-1), description: "WHOLE FOODS #123"))
    try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-1), description: "AMZN Mktp US*2K4"))
    try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-1), description: "Bus"))
    #expect(try db.applyRules() == 2)
    #expect(try db.expenses().compactMap(\.category).sorted() == ["Groceries", "Shopping"])
    #expect(try db.applyRules() == 0, "re-applying changes nothing")
    let october = try Month.parse("2026-10")
    let totals = try db.monthlyTotals(from: october, through: october)
    #expect(totals.first { $0.category == "Groceries" }?.outflowMinor == 1, "the rollup follows re-categorizing")
    #expect(totals.first { $0.category == nil }?.count == 1)
    try db.removeRule(id: 1)
    #expect(throws: StoreError.ruleNotFound(1)) { try db.removeRule(id: 1) }
  }

  @Test func sectionStatesAndSettingsPersistAcrossConnections() throws {
    let path = temporaryPath()
    do {
      let db = try AppDatabase(path: path)
      try db.saveSectionStates(["expenses": true, "trends": false])
      try db.setDefaultCurrency(.eur)
    }
    let reopened = try AppDatabase(path: path)
    #expect(try reopened.sectionStates() == ["expenses": true, "trends": false])
    #expect(try reopened.defaultCurrency() == .eur)
    try reopened.resetSectionStates()
    #expect(try reopened.sectionStates().isEmpty)
  }

  @Test func databaseFileIsPrivate() throws {
    let path = temporaryPath()
    _ = try AppDatabase(path: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func newerSchemaIsRefusedClearly() throws {
    let path = temporaryPath()
    _ = try AppDatabase(path: path)
    // Simulate a future version: a migration this build does not know.
    try FutureSchema.mark(path: path)
    let supported = AppDatabase.schemaVersion
    #expect(throws: StoreError.newerSchema(path: path, found: supported + 1, supported: supported)) {
      try AppDatabase(path: path)
    }
  }

  @Test func version1DatabasesMigrateWithTheirRows() throws {
    let path = temporaryPath()
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FutureSchema.writeVersion1(path: path)
    let db = try AppDatabase(path: path)
    let rows = try db.expenses()
    #expect(rows.map(\.id) == [2, 1])
    #expect(rows.map(\.description) == ["Bus", "Coffee"])
    #expect(rows[1].source == Expense.Source(file: "bank.csv", line: 2))
    #expect(rows[0].source == nil)
    // The imported row kept its key: importing it again is a duplicate.
    let again = try db.importRows(sourceFile: "bank.csv") { session in
      try session.insert(
        date: date("2026-10-01"), amount: usd(-1250), description: "Coffee", category: "Food", account: nil,
        fingerprintHash: 12345, line: 2)
      return session
    }
    #expect(again.duplicates == 1)
    let added = try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-300), description: "Bus"))
    #expect(added.id == 3, "ids continue after the migrated ones")
    #expect(try db.expenseCount(month: try Month.parse("2026-10")) == 3)
  }

  @Test func notADatabaseIsReported() throws {
    let path = temporaryPath()
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(String(repeating: "this is not sqlite ", count: 100).utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError.self) { try AppDatabase(path: path) }
  }

  @Test func categoriesListEverySource() throws {
    let db = try AppDatabase()
    try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-1), description: "a", category: "Food"))
    try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-1), description: "b"))
    try db.saveBudget(Budget(category: "Rent", amount: usd(1)))
    try db.setCategoryKind("Salary", kind: .income)
    let names = try db.categories().map(\.name)
    #expect(names == ["Food", "Rent", "Salary", "Uncategorized"])
    #expect(try db.categoryKinds() == ["Salary": .income])
  }
}

import ExpenseCore
import ExpenseSQLite
import ExpenseStore
import Foundation
import Testing

/// Delete, edit, imports and their removal, `rules apply` provenance, and one name per
/// category, on in-memory databases.
@Suite struct UndoTests {
  func date(_ text: String) -> CivilDate { try! CivilDate.parse(text) }
  func usd(_ minor: Int64) -> Money { Money(minor: minor, currency: .usd) }
  let october = try! Month.parse("2026-10")

  /// `monthTotal` as the report reads it, by (month, currency, category).
  func rollup(_ db: AppDatabase) throws -> [String: [Int64]] {
    var result: [String: [Int64]] = [:]
    for total in try db.monthlyTotals(from: try Month.parse("2000-01"), through: try Month.parse("2100-12")) {
      result["\(total.month) \(total.currency.code) \(total.category ?? "")"] = [
        total.outflowMinor, total.inflowMinor, Int64(total.count),
      ]
    }
    return result
  }

  /// The same sums computed from the rows themselves.
  func recomputed(_ db: AppDatabase) throws -> [String: [Int64]] {
    var result: [String: [Int64]] = [:]
    for row in try db.expenses() {
      let key = "\(row.date.calendarMonth) \(row.amount.currency.code) \(row.category ?? "")"
      var sums = result[key] ?? [0, 0, 0]
      if row.amount.minor < 0 { sums[0] -= row.amount.minor } else { sums[1] += row.amount.minor }
      sums[2] += 1
      result[key] = sums
    }
    return result
  }

  @Test func deleteIsAllOrNothingAndKeepsTheRollup() throws {
    let db = try AppDatabase()
    let a = try db.addExpense(Expense(date: date("2026-10-01"), amount: usd(-450), description: "Coffee"))
    let b = try db.addExpense(
      Expense(date: date("2026-10-02"), amount: usd(-1000), description: "Lunch", category: "Food"))
    #expect(throws: StoreError.expenseNotFound([99])) { try db.deleteExpenses(ids: [a.id!, 99]) }
    #expect(try db.expenseCount() == 2, "an unknown id deletes nothing")
    let deleted = try db.deleteExpenses(ids: [b.id!, b.id!])
    #expect(deleted.map(\.description) == ["Lunch"])
    #expect(try db.expenses().map(\.id) == [a.id])
    #expect(try rollup(db) == recomputed(db))
    #expect(try rollup(db)["2026-10 USD Food"] == nil, "a category with no row left leaves the rollup")
    #expect(try db.expense(id: b.id!) == nil)
  }

  @Test func editKeepsTheIdAndMovesTheSums() throws {
    let db = try AppDatabase()
    let row = try db.addExpense(Expense(date: date("2026-10-31"), amount: usd(-450), description: "Coffee"))
    let id = try #require(row.id)
    var edited = try db.editExpense(id: id, ExpenseEdit(amountMinor: -700, category: " dining  out "))
    #expect(edited.id == id && edited.amount.minor == -700 && edited.category == "dining out")
    #expect(try db.categorySource(id: id) == .hand)
    edited = try db.editExpense(id: id, ExpenseEdit(date: date("2026-11-01"), description: "Espresso", account: "Visa"))
    #expect(edited.date == date("2026-11-01") && edited.description == "Espresso" && edited.account == "Visa")
    #expect(try db.expenses(month: try Month.parse("2026-11")).map(\.id) == [id], "the key follows the new day")
    #expect(try db.expenses(month: october).isEmpty)
    #expect(try rollup(db) == recomputed(db))
    #expect(try rollup(db) == ["2026-11 USD dining out": [700, 0, 1]])
    edited = try db.editExpense(id: id, ExpenseEdit(amountMinor: 300, category: "", account: ""))
    #expect(edited.category == nil && edited.account == nil)
    #expect(try db.categorySource(id: id) == CategorySource.none)
    #expect(try rollup(db) == ["2026-11 USD ": [0, 300, 1]])
    #expect(throws: StoreError.expenseNotFound([id + 1])) {
      try db.editExpense(id: id + 1, ExpenseEdit(amountMinor: 1))
    }
  }

  func importRows(
    _ db: AppDatabase, file: String, _ rows: [(String, Int64, String?, UInt64)], at seconds: Double = 0
  ) throws -> RowFeeder {
    try db.importRows(sourceFile: file, importedAt: Date(timeIntervalSince1970: seconds)) { session in
      for (line, row) in rows.enumerated() {
        try session.insert(
          date: date(row.0), amount: usd(row.1), description: "row \(row.3)", category: row.2, account: nil,
          fingerprintHash: row.3, line: line + 2)
      }
      return session
    }
  }

  @Test func importsAreRecordedAndRemovedExactly() throws {
    let db = try AppDatabase()
    try db.addExpense(Expense(date: date("2026-10-05"), amount: usd(-100), description: "by hand"))
    try importRows(
      db, file: "a.csv", [("2026-10-03", -500, "Food", 1), ("2026-09-30", -200, nil, 2)], at: 1_790_000_000)
    try importRows(db, file: "b.csv", [("2026-10-03", -500, "Food", 1), ("2026-11-02", 900, "Pay", 3)])
    try importRows(db, file: "c.csv", [("2026-10-03", -500, "Food", 1)])  // adds nothing: no record
    let records = try db.imports()
    #expect(records.map(\.file) == ["a.csv", "b.csv"])
    #expect(records[0].rows == 2 && records[0].firstId == 2 && records[0].lastId == 3)
    #expect(records[0].firstDate == date("2026-09-30") && records[0].lastDate == date("2026-10-03"))
    #expect(records[0].importedAt == "2026-09-21T14:13:20Z")
    #expect(records[1].rows == 1 && records[1].firstId == 4 && records[1].lastId == 4)

    try db.editExpense(id: 3, ExpenseEdit(category: "Groceries"))  // edited rows still belong to their import
    #expect(try db.removeImport(id: records[0].id) == 2)
    #expect(try db.expenses().map(\.description).sorted() == ["by hand", "row 3"])
    #expect(try db.imports().map(\.file) == ["b.csv"])
    #expect(try rollup(db) == recomputed(db))
    #expect(throws: StoreError.importNotFound(records[0].id)) { try db.removeImport(id: records[0].id) }
    // The rows are gone, so the same file imports again.
    #expect(try importRows(db, file: "a.csv", [("2026-10-03", -500, "Food", 1)]).inserted == 1)
  }

  @Test func rulesApplyOnlyResortsRuleAndEmptyCategories() throws {
    let db = try AppDatabase()
    try db.addRule(pattern: "market", category: "Groceries", field: .description)
    try db.importRows(sourceFile: "f.csv") { session in
      // From the file: kept.
      try session.insert(
        date: date("2026-10-01"), amount: usd(-1), description: "MARKET hall", category: "Fun", account: nil,
        fingerprintHash: 1, line: 2)
      // From a rule at import time: may change.
      try session.insert(
        date: date("2026-10-01"), amount: usd(-2), description: "market corner", category: "Old", account: nil,
        fingerprintHash: 2, line: 3, categorySource: .rule)
      // None: may change.
      try session.insert(
        date: date("2026-10-01"), amount: usd(-3), description: "market stall", category: nil, account: nil,
        fingerprintHash: 3, line: 4)
    }
    let hand = try db.addExpense(
      Expense(date: date("2026-10-02"), amount: usd(-4), description: "market", category: "Treats"))
    #expect(try db.categorySource(id: 1) == .file && db.categorySource(id: 2) == .rule)
    #expect(try db.categorySource(id: 3) == CategorySource.none && db.categorySource(id: hand.id!) == .hand)

    let before = try db.expenses()
    let dry = try db.applyRules(dryRun: true)
    #expect(dry == RulesApplyResult(changed: 2, byCategory: ["Groceries": 2]))
    #expect(try db.expenses() == before, "a dry run writes nothing")
    #expect(try db.applyRules(dryRun: false) == dry)
    let byID = Dictionary(uniqueKeysWithValues: try db.expenses().map { ($0.id!, $0.category) })
    #expect(byID == [1: "Fun", 2: "Groceries", 3: "Groceries", hand.id!: "Treats"])
    #expect(try db.categorySource(id: 3) == .rule)
    #expect(try rollup(db) == recomputed(db))
    #expect(try db.applyRules() == 0)
  }

  @Test func oneCategoryHasOneName() throws {
    let db = try AppDatabase()
    try importRows(db, file: "a.csv", [("2026-10-01", -100, "groceries", 1), ("2026-10-02", -200, "GROCERIES ", 2)])
    try db.addExpense(
      Expense(date: date("2026-10-03"), amount: usd(-300), description: "x", category: "  Groceries"))
    #expect(Set(try db.expenses().compactMap(\.category)) == ["groceries"], "the first spelling is kept")
    #expect(try db.expenses(category: "GROCERIES").count == 3)
    // A budget's spelling wins, everywhere.
    try db.saveBudget(Budget(category: "Groceries", amount: usd(40000)))
    #expect(Set(try db.expenses().compactMap(\.category)) == ["Groceries"])
    #expect(try rollup(db) == ["2026-10 USD Groceries": [600, 0, 3]])
    try db.saveBudget(Budget(category: "groceries", amount: usd(50000)))  // same category, the spelling stays
    #expect(try db.budgets().map(\.category) == ["Groceries"] && db.budgets().map(\.amount.minor) == [50000])
    try db.setCategoryKind("GROCERIES", kind: .expense)
    try db.addRule(pattern: "x", category: "groceries", field: .description)
    #expect(try db.categories().map(\.name) == ["Groceries"])
    // NFD and NFC spell one category.
    try db.addExpense(Expense(date: date("2026-10-03"), amount: usd(-1), description: "x", category: "Cafe\u{301}"))
    try db.addExpense(Expense(date: date("2026-10-03"), amount: usd(-1), description: "y", category: "CAFÉ"))
    #expect(try db.categories().first { $0.name == "Café" }?.expenseCount == 2)
    #expect(try rollup(db) == recomputed(db))
    try db.removeBudget(category: "GROCERIES", month: nil, currency: nil)
    #expect(try db.budgets().isEmpty)
  }

  @Test func didYouMeanFindsNearNames() throws {
    let db = try AppDatabase()
    try db.addExpense(Expense(date: date("2026-10-03"), amount: usd(-1), description: "x", category: "Groceries"))
    try db.saveBudget(Budget(category: "Rent", amount: usd(1)))
    #expect(try db.categoryNames().suggestion(for: "Grocerys") == "Groceries")
    #expect(try db.categoryNames().suggestion(for: "grocries ") == "Groceries")
    #expect(try db.categoryNames().suggestion(for: "GROCERIES") == nil, "the same category is no near miss")
    #expect(try db.categoryNames().suggestion(for: "Travel") == nil)
    #expect(try db.categoryNames().suggestion(for: "Rnet") == "Rent")
    #expect(CategoryName.distance("kitten", "sitting", limit: 5) == 3)
    #expect(CategoryName.distance("kitten", "sitting", limit: 2) == 3, "stops above the limit")
    #expect(CategoryName.key("  Dining \t Out ") == "dining out")
  }

  @Test func oldDatabasesMergeSpellingsOnMigration() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "expenses-store-\(UUID().uuidString)/db.sqlite"
    ).path
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FutureSchema.writeVersion1(path: path)  // 1: Coffee, 'Food', imported; 2: Bus, none, by hand
    let lunchKey = ExpenseKey.raw(date: date("2026-10-02"), fingerprintHash: 77)
    try FutureSchema.execute(
      path: path,
      """
      INSERT INTO expense VALUES (3, '2026-10-02', -500, 'USD', 'Lunch', 'food ', NULL, \(lunchKey), 'bank.csv', 3);
      INSERT INTO expense VALUES (4, '2026-10-03', -700, 'USD', 'Market', 'FOOD', NULL, 'manual:4', NULL, NULL);
      INSERT INTO expense VALUES (5, '2026-10-04', -200, 'USD', 'Tea', 'Cafe\u{301}', NULL, 'manual:5', NULL, NULL);
      INSERT INTO expense VALUES (6, '2026-10-04', 50, 'USD', 'Tea refund', 'Café', NULL, 'manual:6', NULL, NULL);
      INSERT INTO budget (category, currency, month, amountMinor) VALUES
        ('food', 'USD', '', 10000), ('Food ', 'USD', '', 5000), ('FOOD', 'EUR', '', 3000),
        ('food', 'USD', '2026-12', 900);
      INSERT INTO categoryKind VALUES ('Salary', 'income'), ('salary ', 'expense');
      INSERT INTO rule (pattern, category, field) VALUES ('lunch', 'FOOD', 'description');
      """)
    let db = try AppDatabase(path: path)
    let rows = try db.expenses().sorted { $0.id! < $1.id! }
    #expect(rows.map(\.id) == [1, 2, 3, 4, 5, 6], "nothing lost")
    #expect(rows.map(\.category) == ["food", nil, "food", "food", "Café", "Café"], "a budget's spelling wins")
    let budgets = try db.budgets().map {
      "\($0.category) \($0.amount.currency.code) \($0.month?.description ?? "-") \($0.amount.minor)"
    }
    #expect(
      Set(budgets) == ["food USD - 15000", "food EUR - 3000", "food USD 2026-12 900"],
      "colliding budgets are added")
    #expect(try db.categoryKinds() == ["Salary": .income], "the kind set on purpose is kept")
    #expect(try db.rules().map(\.category) == ["food"])
    let (stored, fromRows) = (try rollup(db), try recomputed(db))
    #expect(stored == fromRows, "\(stored) \(fromRows)")
    #expect(try rollup(db)["2026-10 USD food"] == [2450, 0, 3])
    #expect(try db.categorySource(id: 1) == .file)
    #expect(try db.categorySource(id: 2) == CategorySource.none)
    #expect(try db.categorySource(id: 3) == .rule, "a current rule gives that category")
    #expect(try db.categorySource(id: 4) == .hand)
    #expect(try db.imports().isEmpty, "imports before v3 have no record")
    #expect(try db.deleteExpenses(ids: [3]).count == 1, "ids are found through the new index")
  }
}

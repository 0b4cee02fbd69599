import ExpenseCore
import ExpenseSQLite
import ExpenseStore
import Foundation
import TestSupport
import Testing

/// After random sequences of add, edit, delete, import, `imports remove` and `rules apply`, the
/// `monthTotal` rollup equals a recomputation from the rows, every month's report equals the
/// report computed from the rows alone, and every category has one spelling.
@Suite struct UndoPropertyTests {
  /// The shared seeded generator: a failing sequence can be replayed by its seed.
  typealias Seeded = SeededRandom

  static let spellings: [String?] = [nil, "Food", "food ", " FOOD", "Rent", "rent", "Fun", "Cafe\u{301}", "CAFÉ"]
  static let words = ["market", "coffee", "rent", "bus", "salary", "refund"]
  static let months = ["2026-08", "2026-09", "2026-10", "2026-11"].map { try! Month.parse($0) }

  struct State {
    var rng: Seeded
    var nextHash: UInt64 = 1
    /// Rows of earlier imports, to import again (duplicates) now and then.
    var imported: [(CivilDate, Money, String, String?, UInt64)] = []

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    mutating func date() -> CivilDate {
      let month = pick(UndoPropertyTests.months)
      return CivilDate(year: month.year, month: month.month, day: Int.random(in: 1...month.dayCount, using: &rng))!
    }
    mutating func money() -> Money {
      let minor = Int64.random(in: -50_000...20_000, using: &rng)
      return Money(minor: minor == 0 ? -1 : minor, currency: chance(80) ? .usd : .eur)
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
  func rollupAndReportsFollowTheRows(seed: UInt64) throws {
    let db = try AppDatabase()
    var state = State(rng: Seeded(state: seed))
    try db.saveBudget(Budget(category: "Food", amount: Money(minor: 40_000, currency: .usd)))
    try db.setCategoryKind("rent", kind: .income)
    for step in 0..<60 {
      let operation = Int.random(in: 0..<7, using: &state.rng)
      let ids = try db.expenses().compactMap(\.id)
      switch operation {
      case 0:
        try db.addExpense(
          Expense(
            date: state.date(), amount: state.money(), description: state.pick(UndoPropertyTests.words),
            category: state.pick(UndoPropertyTests.spellings)))
      case 1 where !ids.isEmpty:
        var change = ExpenseEdit()
        if state.chance(50) { change.date = state.date() }
        if state.chance(50) { change.amountMinor = state.money().minor }
        if state.chance(50) { change.category = state.pick(UndoPropertyTests.spellings) ?? "" }
        if state.chance(30) { change.description = state.pick(UndoPropertyTests.words) }
        if change.isEmpty { change.account = "Visa" }
        try db.editExpense(id: state.pick(ids), change)
      case 2 where !ids.isEmpty:
        var chosen = [state.pick(ids), state.pick(ids)]
        if state.chance(25) {
          chosen.append((ids.max() ?? 0) + 1000)
          let before = try db.expenses()
          #expect(throws: StoreError.self) { try db.deleteExpenses(ids: chosen) }
          #expect(try db.expenses() == before, "seed \(seed) step \(step): an unknown id deletes nothing")
        } else {
          try db.deleteExpenses(ids: chosen)
        }
      case 3:
        try importSome(db, &state)
      case 4:
        let records = try db.imports()
        if !records.isEmpty {
          let record = state.pick(records)
          let before = try db.expenses()
          let removed = try db.removeImport(id: record.id)
          let after = try db.expenses()
          #expect(
            Set(before.compactMap(\.id)).subtracting(after.compactMap(\.id))
              == Set(before.compactMap(\.id).filter { (record.firstId...record.lastId).contains($0) }),
            "seed \(seed) step \(step): exactly the import's rows go")
          #expect(removed == before.count - after.count)
        }
      case 5:
        if state.chance(50) {
          try db.addRule(
            pattern: state.pick(UndoPropertyTests.words), category: state.pick(UndoPropertyTests.spellings) ?? "Misc",
            field: .description)
        }
        var kept: [Int64: String?] = [:]  // categories from the file or by hand: never re-sorted
        for row in try db.expenses() where try db.categorySource(id: row.id!).map({ !$0.rulesMayChange }) ?? false {
          kept[row.id!] = row.category
        }
        let dry = try db.applyRules(dryRun: true)
        #expect(try db.applyRules(dryRun: false) == dry, "seed \(seed) step \(step): the dry run tells the truth")
        for row in try db.expenses() where kept[row.id!] != nil {
          #expect(kept[row.id!] == row.category, "seed \(seed) step \(step): rules apply kept #\(row.id!)")
        }
      default:
        try db.addExpense(Expense(date: state.date(), amount: state.money(), description: "coffee"))
      }
      try check(db, seed: seed, step: step)
    }
  }

  func importSome(_ db: AppDatabase, _ state: inout State) throws {
    var rows: [(CivilDate, Money, String, String?, UInt64)] = []
    for _ in 0..<Int.random(in: 1...12, using: &state.rng) {
      if !state.imported.isEmpty && state.chance(30) {
        rows.append(state.pick(state.imported))  // a duplicate of an earlier import
      } else {
        state.nextHash += 1
        rows.append(
          (
            state.date(), state.money(), state.pick(UndoPropertyTests.words), state.pick(UndoPropertyTests.spellings),
            state.nextHash
          ))
      }
    }
    let ruled = state.chance(30)
    try db.importRows(sourceFile: "f\(state.nextHash).csv", importedAt: Date(timeIntervalSince1970: 0)) { session in
      for (line, row) in rows.enumerated() {
        try session.insert(
          date: row.0, amount: row.1, description: row.2, category: row.3, account: nil, fingerprintHash: row.4,
          line: line + 2, categorySource: ruled ? .rule : nil)
      }
    }
    state.imported += rows
  }

  /// The invariants, after every step.
  func check(_ db: AppDatabase, seed: UInt64, step: Int) throws {
    let rows = try db.expenses()
    var fromRows: [String: CategoryMonthTotal] = [:]
    var historyStart: [Currency: Month] = [:]
    var spellings: [String: Set<[UInt8]>] = [:]
    for row in rows {
      let month = row.date.calendarMonth
      let key = "\(month) \(row.amount.currency.code) \(row.category ?? "")"
      var total =
        fromRows[key]
        ?? CategoryMonthTotal(
          currency: row.amount.currency, category: row.category, month: month, outflowMinor: 0, inflowMinor: 0,
          count: 0, inflowCount: 0, dailyOutflowMinor: [Int64](repeating: 0, count: 31))
      if row.amount.minor < 0 {
        total.outflowMinor -= row.amount.minor
        total.dailyOutflowMinor![row.date.day - 1] -= row.amount.minor
      } else {
        total.inflowMinor += row.amount.minor
        if row.amount.minor > 0 { total.inflowCount += 1 }
      }
      total.count += 1
      fromRows[key] = total
      historyStart[row.amount.currency] = min(historyStart[row.amount.currency] ?? month, month)
      if let category = row.category { spellings[CategoryName.key(category), default: []].insert(Array(category.utf8)) }
    }
    let stored = try db.monthlyTotals(
      from: try Month.parse("2000-01"), through: try Month.parse("2100-12"), daily: true)
    let context = "seed \(seed) step \(step)"
    #expect(Set(stored) == Set(fromRows.values), "\(context): the rollup equals the rows")
    #expect(try db.historyStart() == historyStart, "\(context)")
    #expect(spellings.values.allSatisfy { $0.count == 1 }, "\(context): one spelling per category")

    let budgets = try db.budgets()
    let kinds = try db.categoryKinds()
    let calculator = BenchmarkCalculator(today: try CivilDate.parse("2026-10-20"))
    for month in UndoPropertyTests.months {
      let fromStore = calculator.report(
        for: month,
        input: .init(
          totals: try db.monthlyTotals(
            from: month.adding(months: -BenchmarkCalculator.shapeMonths), through: month, daily: true),
          budgets: budgets,
          kinds: kinds,
          historyStart: try db.historyStart()))
      let alone = calculator.report(
        for: month,
        input: .init(
          totals: fromRows.sorted { $0.key < $1.key }.map(\.value), budgets: budgets, kinds: kinds,
          historyStart: historyStart))
      #expect(fromStore == alone, "\(context): the report for \(month) equals one from the rows alone")
    }
  }
}

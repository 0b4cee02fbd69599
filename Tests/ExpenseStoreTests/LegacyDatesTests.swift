import ExpenseCore
import Foundation
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// A database holding what an older version let through: a budget month `999-05`, rows dated
/// outside the supported range (whose keys wrapped to another day), and rollup months written
/// without their leading zeros. Readers skip or report them; no door lets new ones in.
@Suite struct LegacyDatesTests {
  /// A database with two good rows (2026-09, 2026-10) and the old values written with raw SQL.
  static func makeDatabase() throws -> (AppDatabase, URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-legacy-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let db = try AppDatabase(path: directory.appendingPathComponent("db.sqlite").path)
    for (day, minor) in [("2026-09-30", Int64(-1250)), ("2026-10-01", -500)] {
      try db.addExpense(
        Expense(
          date: try CivilDate.parse(day), amount: Money(minor: minor, currency: .usd), description: "Shop",
          category: "Groceries"))
    }
    try db.saveBudget(Budget(category: "Groceries", amount: Money(minor: 40_000, currency: .usd)))
    try writeLegacyValues(db)
    return (db, directory)
  }

  /// What an older build stored for `budget set Groceries 10 --month 0999-05`, `add 0001-01-01`
  /// and `add 0002-03-04`: the key is the one it computed (its day wrapped in 20 bits).
  static func writeLegacyValues(_ db: AppDatabase) throws {
    let wrapped = ExpenseKey(date: try #require(CivilDate(year: 1, month: 1, day: 1)), fingerprintHash: 5).rawValue
    let second = ExpenseKey(date: try #require(CivilDate(year: 2, month: 3, day: 4)), fingerprintHash: 6).rawValue
    try db.write { db in
      try db.execute(
        sql: """
          INSERT INTO budget (category, currency, month, amountMinor) VALUES ('Groceries', 'USD', '999-05', 1000);
          INSERT INTO expense (key, id, date, amountMinor, currency, description, category)
            VALUES (\(wrapped), 1000, '0001-01-01', -100, 'USD', 'X', 'Groceries'),
                   (\(second), 1001, '0002-03-04', -200, 'USD', 'Y', 'Groceries');
          INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount)
            VALUES ('1-01', 'USD', 'Groceries', 100, 0, 1, 0), ('2-03', 'USD', 'Groceries', 200, 0, 1, 0);
          INSERT INTO idRun (firstId, lastId, day) VALUES (1000, 1000, \(wrapped >> 43)), (1001, 1001, \(second >> 43));
          """)
    }
  }

  @Test func readersSkipOrShowWhatIsOutsideAndNeverFail() throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    let budgets = try db.budgets()
    #expect(budgets.map(\.month) == [nil], "the 999-05 override is left out")
    let totals = try db.monthlyTotals(
      from: try #require(Month(year: 1899, month: 10)), through: try Month.parse("2026-10"))
    #expect(totals.map(\.month.description).sorted() == ["2026-09", "2026-10"])
    #expect(
      try db.monthlyTotals(from: try #require(Month(year: 1, month: 1)), through: try Month.parse("1900-02")).isEmpty)
    #expect(try db.historyStart()[.usd]?.description == "2026-09")
    #expect(try db.latestMonth()?.description == "2026-10", "not the wrapped key's month")
    let listed = try db.expenses().map(\.date.description)
    #expect(listed.contains("0001-01-01"), "a list shows the row, so it can be edited or deleted")
  }

  @Test func checkNamesTheValuesAndHowToFixThem() throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = try db.check()
    let budget = report.problems.first { $0.table == "budget" }
    #expect(budget?.months == ["999-05"])
    #expect(budget?.message.contains("1900-01 through 2999-12") == true)
    let rows = report.problems.first { $0.message.contains("outside the supported range") && $0.table == "expense" }
    #expect(rows?.rowIDs == [1000, 1001])
    #expect(rows?.message.contains("expenses edit ID --date") == true)

    try db.removeBudget(category: "Groceries", month: Month(year: 999, month: 5), currency: nil)
    try db.editExpense(id: 1000, ExpenseEdit(date: try CivilDate.parse("2026-10-02")))
    _ = try db.deleteExpenses(ids: [1001])
    let after = try db.check()
    #expect(!after.problems.contains { $0.message.contains("outside the supported range") }, "\(after.problems)")
  }

  @Test func noWriteStoresADateOrMonthOutsideTheRange() throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    let early = try #require(CivilDate(year: 1, month: 1, day: 1))
    #expect(throws: CoreError.dateOutOfRange("0001-01-01")) {
      try db.addExpense(Expense(date: early, amount: Money(minor: -1, currency: .usd), description: "X"))
    }
    #expect(throws: CoreError.monthOutOfRange("0999-05")) {
      try db.saveBudget(
        Budget(category: "Groceries", amount: Money(minor: 1, currency: .usd), month: Month(year: 999, month: 5)))
    }
    let id = try #require(try db.expenses().first { $0.date.isSupported }?.id)
    #expect(throws: CoreError.dateOutOfRange("0001-01-01")) { try db.editExpense(id: id, ExpenseEdit(date: early)) }
  }
}

/// Taking back stored rows never traps, whatever amounts a hand-edited file holds.
@Suite struct MonthTotalTakeBackTests {
  @Test func takingBackHugeAmountsSaturates() throws {
    var deltas = MonthTotalDeltas()
    let date = try CivilDate.parse("2026-10-01")
    for _ in 0..<3 { deltas.remove(date: date, amount: Money(minor: -Int64.max, currency: .usd), category: nil) }
    for _ in 0..<3 { deltas.remove(date: date, amount: Money(minor: Int64.max, currency: .usd), category: nil) }
    #expect(MonthTotalDeltas.Sums.saturating(.min, minus: 1) == .min)
    #expect(MonthTotalDeltas.Sums.saturating(10, minus: 3) == 7)
  }
}

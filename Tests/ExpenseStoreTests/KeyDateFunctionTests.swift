import ExpenseCore
import GRDB
import TestSupport
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// `expenseKeyDate` (the streaming read's date of a key) against the `expense` view's own
/// `date()` of the same keys, within one statement as a listing calls it: days that repeat,
/// change, change back and alternate (the function keeps the last day's text, handed to SQLite
/// without a copy), through a sorter (`ORDER BY` on the function's value); and the keys it
/// answers NULL for (negative: never written by this program; not an integer).
@Suite struct KeyDateFunctionTests {
  /// Keys in the order given, as rows of a temporary table.
  static func withKeys<T>(_ keys: [Int64?], _ body: (Database) throws -> T) throws -> T {
    let store = try AppDatabase()
    return try store.write { db in
      try db.execute(sql: "CREATE TEMPORARY TABLE probe (position INTEGER PRIMARY KEY, key INTEGER)")
      for key in keys { try db.execute(sql: "INSERT INTO probe (key) VALUES (?)", arguments: [key]) }
      return try body(db)
    }
  }

  static func keys() -> [Int64] {
    var rng = SeededRandom(state: 31)
    let day = { (date: CivilDate) in ExpenseKey.storedDay(date) }
    let first = day(CivilDate(year: 2026, month: 1, day: 1)!)
    var keys: [Int64] = []
    // Runs of one day, then days alternating row by row, then random days across every day
    // field a key can hold, the ends of `CivilDate`'s supported range and of the keys.
    for offset in 0..<40 {
      for _ in 0..<(1 + offset % 4) {
        keys.append(ExpenseKey(day: first + Int64(offset / 3), hash: Int64(rng.int(0...1_000_000))).rawValue)
      }
    }
    for index in 0..<60 { keys.append(ExpenseKey(day: first + Int64(index % 2), hash: 5).rawValue) }
    for _ in 0..<300 { keys.append(ExpenseKey(day: Int64(rng.int(0...0xF_FFFF)), hash: 9).rawValue) }
    keys += [
      ExpenseKey(day: day(CivilDate.supportedRange.lowerBound), hash: 0).rawValue,
      ExpenseKey(day: day(CivilDate.supportedRange.upperBound), hash: ExpenseKey.hashMask).rawValue,
      0, Int64.max,
    ]
    return keys
  }

  @Test func eachRowGetsTheViewsDateInOneStatement() throws {
    let rows = try Self.withKeys(Self.keys()) { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT \(KeyDateFunction.name)(key) AS ours, \(AppDatabase.keyDateSQL("key")) AS view
          FROM probe ORDER BY position
          """)
    }
    #expect(rows.count == Self.keys().count)
    for row in rows {
      let ours: String? = row["ours"]
      let view: String? = row["view"]
      #expect(ours != nil && ours == view, "\(row)")
    }
  }

  @Test func negativeAndNonIntegerKeysGiveNull() throws {
    let answers = try Self.withKeys([ExpenseKey(day: 20_000, hash: 1).rawValue, -1, Int64.min, nil]) { db in
      try db.execute(sql: "INSERT INTO probe (key) VALUES ('text'), (1.5)")
      return try String?.fetchAll(db, sql: "SELECT \(KeyDateFunction.name)(key) FROM probe ORDER BY position")
    }
    #expect(answers.count == 6)
    #expect(answers.first.flatMap { $0 } != nil)
    #expect(answers.dropFirst().allSatisfy { $0 == nil })
  }

  @Test func aSorterKeepsEachRowsText() throws {
    let (ours, view) = try Self.withKeys(Self.keys()) { db in
      (
        try String?.fetchAll(
          db, sql: "SELECT \(KeyDateFunction.name)(key) AS d FROM probe ORDER BY d DESC, position"),
        try String?.fetchAll(
          db, sql: "SELECT \(AppDatabase.keyDateSQL("key")) AS d FROM probe ORDER BY d DESC, position")
      )
    }
    #expect(ours == view)
  }
}

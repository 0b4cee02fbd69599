import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// The streaming read (`withExpenseSnapshot` / `forEachExpense`) gives the rows of the array
/// reads, in their order, on clean databases (read by key and grouped per date) and on damaged
/// ones (sorted by SQL, or decoded the general way): hand-edited dates, legacy keys, duplicate
/// ids, REAL amounts, NUL bytes, invalid UTF-8, BLOB texts, unknown currencies.
@Suite struct ExpenseStreamTests {
  /// A database of `count` imported rows over a few months (several per day, ids in file
  /// order, so within a day key order is not id order) and some added by hand.
  static func makeDatabase(count: Int = 600) throws -> (AppDatabase, URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-stream-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let db = try AppDatabase(path: directory.appendingPathComponent("db.sqlite").path)
    let texts = ["Coffee", "Café Müller", "a, \"b\"", "=1+1", "麺", "", "tab\there", "\u{202E}x"]
    let categories: [String?] = [nil, "Groceries", "Dining", "Salary", "Transfers"]
    var rng = SeededRandom(state: 11)
    try db.importRows(sourceFile: "bank.csv") { feeder in
      for index in 0..<count {
        let day = CivilDate(year: 2026, month: 8 + index * 3 / count, day: 1 + index % 27)!
        try feeder.insert(
          date: day, amount: Money(minor: Int64(rng.int(-90_000...20_000)), currency: index % 7 == 0 ? .eur : .usd),
          // Some descriptions repeat (kept in the dictionary after their first row), the others
          // are seen once (kept in their rows).
          description: texts[index % texts.count] + " \(index % 3 == 0 ? index : index % 48)",
          category: categories[index % categories.count],
          account: index % 5 == 0 ? "Card" : nil, fingerprintHash: rng.next(), line: index + 2)
      }
    }
    for day in [3, 3, 17] {
      _ = try db.addExpense(
        Expense(
          date: CivilDate(year: 2026, month: 9, day: day)!, amount: Money(minor: -450, currency: .usd),
          description: "by hand", category: "Dining"))
    }
    return (db, directory)
  }

  /// The rows of a streaming read, as `Expense`s, and whether the read found them in date order
  /// by key (nil when it did not check).
  static func streamed(_ db: AppDatabase, _ queries: [ExpenseQuery]) throws -> ([[Expense]], [ExpenseQuery: Bool]) {
    try db.withExpenseSnapshot { snapshot in
      var passes: [[Expense]] = []
      for query in queries {
        var rows: [Expense] = []
        try snapshot.forEachExpense(query) { rows.append($0.expense) }
        passes.append(rows)
      }
      return (passes, (snapshot as? AppDatabase.Snapshot)?.inDateOrder ?? [:])
    }
  }

  /// The array reads' rows as the stream gives them (the stream does not carry categorySource).
  static func plain(_ expenses: [Expense]) -> [Expense] {
    expenses.map {
      var copy = $0
      copy.categorySource = nil
      return copy
    }
  }

  static let october = Month(year: 2026, month: 10)!

  /// Every filter and order, against the array read with the same filter.
  static func expectSameAsArrays(_ db: AppDatabase, inDateOrder expected: Bool?) throws {
    let filters: [(Month?, String?)] = [
      (nil, nil), (october, nil), (nil, "Dining"), (nil, "Uncategorized"), (nil, "dining"),
    ]
    for (month, category) in filters {
      let query = ExpenseQuery(month: month, category: category)
      let (passes, verdicts) = try streamed(db, [query.ordered(.any), query])
      let array = plain(try db.expenses(month: month, category: category))
      #expect(passes[1] == array, "\(String(describing: month)) \(String(describing: category))")
      #expect(Set(passes[0]) == Set(array), "the measuring pass sees the same rows")
      #expect(passes[0].count == array.count)
      if let expected { #expect(verdicts[query.ordered(.any)] == expected) }
    }
    let ranges: [(CivilDate?, CivilDate?)] = [
      (nil, nil), (CivilDate(year: 2026, month: 9, day: 3), nil), (nil, CivilDate(year: 2026, month: 9, day: 17)),
      (CivilDate(year: 2026, month: 9, day: 3), CivilDate(year: 2026, month: 10, day: 2)),
    ]
    for (first, last) in ranges {
      // The ordered pass alone: the date order is checked by its own pass.
      let (passes, verdicts) = try streamed(db, [ExpenseQuery(from: first, through: last, order: .oldestFirst)])
      #expect(passes[0] == plain(try db.expenses(from: first, through: last)))
      if let expected { #expect(verdicts[ExpenseQuery(from: first, through: last, order: .any)] == expected) }
    }
  }

  /// Each ordered pass alone (no measuring pass before it) gives the array reads' rows.
  static func expectOrderedPassesAloneMatchTheArrays(_ db: AppDatabase) throws {
    let (newest, _) = try streamed(db, [ExpenseQuery()])
    #expect(newest[0] == plain(try db.expenses()))
    let (oldest, _) = try streamed(db, [ExpenseQuery(order: .oldestFirst)])
    #expect(oldest[0] == plain(try db.expenses(from: nil, through: nil)))
  }

  @Test func aCleanDatabaseIsReadByKeyInTheArraysOrder() throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.expectSameAsArrays(db, inDateOrder: true)
  }

  @Test func anEmptyDatabaseStreamsNothing() throws {
    let db = try AppDatabase()
    let (passes, _) = try Self.streamed(db, [ExpenseQuery(), ExpenseQuery(order: .any)])
    #expect(passes == [[], []])
  }

  @Test(arguments: [
    // A legacy row whose key wrapped to a day in 2871, and a date edited by hand.
    """
    INSERT INTO expense (key, id, date, amountMinor, currency, description, category)
      VALUES ((853702 << 43) | 5, 5000, '0001-01-01', -100, 'USD', 'legacy', 'Dining');
    """,
    "UPDATE expense SET date = '2026-08-02' WHERE id = 300",
    "UPDATE expense SET date = ' 2026-09-05' WHERE id = 40",
  ])
  func aDatabaseOutOfDateOrderIsSortedBySQL(_ sql: String) throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    try db.write { db in try db.execute(sql: sql) }
    let query = ExpenseQuery()
    let (passes, verdicts) = try Self.streamed(db, [query.ordered(.any), query, query.ordered(.oldestFirst)])
    #expect(verdicts[query.ordered(.any)] == false)
    let array = Self.plain(try db.expenses())
    #expect(passes[1] == array)
    #expect(passes[2] == Self.plain(try db.expenses(from: nil, through: nil)))
    // An ordered pass alone: the dates are known from the keys, or checked by a pass of its own.
    try Self.expectOrderedPassesAloneMatchTheArrays(db)
  }

  /// Whether every date of a filter is its key's is one lookup in the index of dated rows: a
  /// dated row or a negative key among the filter's keys says no, rows elsewhere do not, and a
  /// file without the index is checked row by row (and read right either way).
  @Test(arguments: [
    ("", true, true),
    ("UPDATE expense SET date = '2026-08-02' WHERE id = 300", false, true),
    ("UPDATE expense SET date = '2026-09-01' WHERE id = 500", false, false),
    (
      "INSERT INTO expense (key, id, amountMinor, currency, description) VALUES (-5, 9000, -1, 'USD', 'negative')",
      false, true
    ),
    ("DROP INDEX \(AppDatabase.datedIndex)", false, false),
  ])
  func theDatesAreKnownFromTheKeysWhenNoRowHasItsOwn(_ sql: String, everywhere: Bool, inOctober: Bool) throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    if !sql.isEmpty { try db.write { db in try db.execute(sql: sql) } }
    let answers = try db.withExpenseSnapshot { snapshot in
      let snapshot = try #require(snapshot as? AppDatabase.Snapshot)
      return (snapshot.datesComeFromKeys(ExpenseQuery()), snapshot.datesComeFromKeys(ExpenseQuery(month: Self.october)))
    }
    #expect(answers.0 == everywhere)
    #expect(answers.1 == inOctober)
    for query in [ExpenseQuery(), ExpenseQuery(month: Self.october), ExpenseQuery(order: .oldestFirst)] {
      let (passes, _) = try Self.streamed(db, [query])
      let array =
        query.order == .oldestFirst ? try db.expenses(from: nil, through: nil) : try db.expenses(month: query.month)
      #expect(passes[0] == Self.plain(array))
    }
  }

  /// A date the grouped read cannot put in order in memory (an id twice, an id that is not an
  /// integer, more rows than the run limit) is read again on its own, sorted by SQL, when the
  /// order was known from the keys: the rows are the arrays', and the read fails where the
  /// array read fails.
  @Test(arguments: [
    "UPDATE expense SET id = (SELECT id FROM expense WHERE id <> 20 AND date = (SELECT date FROM expense WHERE id = 20) LIMIT 1) WHERE id = 20",
    "UPDATE expenseRow SET id = 21 WHERE id IN (20, 22)",
    "UPDATE expenseRow SET amountMinor = 'x' WHERE id IN (20, 21); UPDATE expenseRow SET id = 20 WHERE id = 21",
    "UPDATE expenseRow SET id = 20.5 WHERE id = 30",
  ])
  func aDateTheBufferCannotOrderIsReadAgainSortedBySQL(_ sql: String) throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    try db.write { db in try db.execute(sql: sql) }
    for order in [ExpenseQuery.Order.newestFirst, .oldestFirst] {
      let query = ExpenseQuery(order: order)
      let array = Result {
        Self.plain(order == .oldestFirst ? try db.expenses(from: nil, through: nil) : try db.expenses())
      }
      let stream = Result { try Self.streamed(db, [query]).0[0] }
      switch (array, stream) {
      case (.success(let rows), .success(let streamed)): #expect(streamed == rows)
      case (.failure(let arrayError), .failure(let streamError)):
        // The export's array read names fewer columns in its message; the row is the same.
        if order == .newestFirst { #expect(String(describing: streamError) == String(describing: arrayError)) }
      default: Issue.record("array \(array), stream \(stream)")
      }
    }
    let known = try db.withExpenseSnapshot { ($0 as? AppDatabase.Snapshot)?.datesComeFromKeys(ExpenseQuery()) }
    #expect(known == true)
  }

  @Test(arguments: [
    "UPDATE expense SET amountMinor = CAST(amountMinor AS REAL) WHERE id % 9 = 0",
    "UPDATE expense SET description = 'before' || char(0) || 'after' WHERE id % 8 = 0",
    "UPDATE expense SET description = CAST(X'41FF42C3' AS TEXT) WHERE id % 7 = 0",
    "UPDATE expense SET description = CAST('as a blob' AS BLOB) WHERE id % 6 = 0",
    // Descriptions stored in the row (BLOBs) that are not valid UTF-8, or hold a NUL.
    "UPDATE expenseRow SET descriptionId = X'41FF42' WHERE id % 5 = 0",
    "UPDATE expenseRow SET descriptionId = CAST('a' || char(0) || 'b' AS BLOB) WHERE id % 4 = 0",
    "UPDATE expense SET currency = 'eur' WHERE id % 5 = 0",
    "UPDATE expense SET sourceLine = NULL WHERE id % 4 = 0",
    "UPDATE expense SET category = '' WHERE id % 3 = 0",
    // Ids without an entry in their dictionary (the joins give NULL): read again with the joins.
    "UPDATE expenseRow SET categoryId = 9999 WHERE id % 10 = 0",
    "UPDATE expenseRow SET fileId = 9999 WHERE id % 11 = 0",
    "UPDATE expenseRow SET categoryId = 'x' WHERE id % 12 = 0",
  ])
  func valuesTheFastReaderLeavesAreDecodedAsTheArraysDecodeThem(_ sql: String) throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    try db.write { db in try db.execute(sql: sql) }
    try Self.expectSameAsArrays(db, inDateOrder: true)
  }

  @Test(arguments: [
    "UPDATE expense SET currency = 'XXQ' WHERE id IN (30, 200)",
    "UPDATE expense SET amountMinor = 'abc' WHERE id = 30",
    "UPDATE expense SET date = '2026-02-30' WHERE id = 30",
    "UPDATE expenseRow SET descriptionId = 9999 WHERE id = 30",
    "UPDATE expenseRow SET currencyId = 9999 WHERE id = 30",
    "UPDATE expenseRow SET id = 'x' WHERE id = 30",
  ])
  func anUndecodableRowFailsAsTheArrayReadFails(_ sql: String) throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    try db.write { db in try db.execute(sql: sql) }
    let arrayError = #expect(throws: StoreError.self) { try db.expenses() }
    let streamError = #expect(throws: StoreError.self) { try Self.streamed(db, [ExpenseQuery()]) }
    #expect(String(describing: streamError) == String(describing: arrayError))
  }

  /// The dictionaries are read into memory once per snapshot (`StreamTexts`) unless a table
  /// does not qualify; either way the rows are the arrays'.
  @Test(arguments: [
    ("", true),
    // An entry the fast reader would not take as it is, in each dictionary.
    (
      "UPDATE descriptionText SET text = CAST(X'41FF42' AS TEXT) WHERE id = (SELECT MIN(id) FROM descriptionText)",
      false
    ),
    ("UPDATE categoryName SET name = CAST('Dining' AS BLOB) WHERE name = 'Dining'", false),
    ("UPDATE importFile SET name = CAST(X'C0' AS TEXT)", false),
    ("UPDATE currencyCode SET code = 'XXQ' WHERE code = 'EUR'", false),
    // Ids far from dense.
    (
      "UPDATE expenseRow SET descriptionId = 90000000 WHERE descriptionId = (SELECT MIN(id) FROM descriptionText); "
        + "UPDATE descriptionText SET id = 90000000 WHERE id = (SELECT MIN(id) FROM descriptionText)", false
    ),
  ])
  func theDictionariesAreHeldInMemoryWhenTheyQualify(_ sql: String, inMemory: Bool) throws {
    let (db, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    if !sql.isEmpty { try db.write { db in try db.execute(sql: sql) } }
    let loaded = try db.withExpenseSnapshot { snapshot in
      // The unknown currency fails the read (checked below); the texts were decided before.
      try? snapshot.forEachExpense(ExpenseQuery()) { _ in }
      return (snapshot as? AppDatabase.Snapshot)?.textsInMemory
    }
    #expect(loaded == inMemory)
    if sql.contains("currencyCode") {
      let arrayError = #expect(throws: StoreError.self) { try db.expenses() }
      let streamError = #expect(throws: StoreError.self) { try Self.streamed(db, [ExpenseQuery()]) }
      #expect(String(describing: streamError) == String(describing: arrayError))
    } else {
      try Self.expectSameAsArrays(db, inDateOrder: true)
    }
  }

  @Test func aDateWithMoreRowsThanTheRunLimitIsSortedBySQL() throws {
    let (db, directory) = try Self.makeDatabase(count: 30)
    defer { try? FileManager.default.removeItem(at: directory) }
    let day = ExpenseKey.storedDay(CivilDate(year: 2026, month: 9, day: 9)!)
    try db.write { db in
      try db.execute(
        sql: """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i <= \(DateOrderCheck.runLimit))
          INSERT INTO expense (key, id, date, amountMinor, currency, description)
            SELECT (\(day) << 43) | (i * 7919 % 100003), 100000 + i, '2026-09-09', -i, 'USD', 'many ' || i FROM n
          """)
    }
    // The dates are their keys' days: the order is known, and that date is read again by SQL.
    let (passes, verdicts) = try Self.streamed(db, [ExpenseQuery(order: .any), ExpenseQuery()])
    #expect(verdicts[ExpenseQuery(order: .any)] == true)
    #expect(passes[1] == Self.plain(try db.expenses()))
    // Checked row by row (the index gone), the long date sends the read to SQL's sort.
    try db.write { db in try db.execute(sql: "DROP INDEX \(AppDatabase.datedIndex)") }
    let (checked, verdict) = try Self.streamed(db, [ExpenseQuery(order: .any), ExpenseQuery()])
    #expect(verdict[ExpenseQuery(order: .any)] == false)
    #expect(checked[1] == Self.plain(try db.expenses()))
    try db.write { db in try AppDatabase.migrateDated(db) }
    // Alone, the ordered pass knows the order from the keys and reads that date again by SQL.
    try Self.expectOrderedPassesAloneMatchTheArrays(db)
  }

  /// A bank file lists a day's rows together, so a day's ids are consecutive (put in their
  /// slots, no sort), in key order shuffled by the fingerprint; a gap, an id twice (read again by
  /// SQL) and a day of far-apart ids (sorted) read as the arrays read them.
  @Test(arguments: [
    "", "DELETE FROM expense WHERE id % 3 = 0", "UPDATE expenseRow SET id = id + 1 WHERE id = 41",
    "UPDATE expenseRow SET id = id * 1000 WHERE id BETWEEN 61 AND 80",
  ])
  func aDayOfConsecutiveIdsIsPutInOrderByItsIds(_ sql: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-stream-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = try AppDatabase(path: directory.appendingPathComponent("db.sqlite").path)
    var rng = SeededRandom(state: 3)
    try db.importRows(sourceFile: "bank.csv") { feeder in
      for index in 0..<200 {
        try feeder.insert(
          date: CivilDate(year: 2026, month: 10, day: 1 + index / 20)!,
          amount: Money(minor: -Int64(index + 1), currency: .usd), description: "row \(index)", category: nil,
          account: nil, fingerprintHash: rng.next(), line: index + 2)
      }
    }
    if !sql.isEmpty { try db.write { db in try db.execute(sql: sql) } }
    #expect(try !db.expenses().isEmpty)
    try Self.expectOrderedPassesAloneMatchTheArrays(db)
  }

  struct Stop: Error {}

  /// An error of the visitor (a closed output) is not a database error: it comes out as it is.
  @Test func theVisitorsErrorsPassThroughUnchanged() throws {
    let (db, directory) = try Self.makeDatabase(count: 50)
    defer { try? FileManager.default.removeItem(at: directory) }
    for order in [ExpenseQuery.Order.any, .newestFirst, .oldestFirst] {
      var seen = 0
      #expect(throws: Stop.self) {
        try db.withExpenseSnapshot { snapshot in
          try snapshot.forEachExpense(ExpenseQuery(order: order)) { _ in
            seen += 1
            if seen == 10 { throw Stop() }
          }
        }
      }
      #expect(seen == 10)
    }
  }

  /// The UTF-8 check is Swift's: bytes it accepts are kept as they are by `String`.
  @Test func utf8ValidationIsSwifts() {
    var rng = SeededRandom(state: 5)
    let interesting: [UInt8] = [
      0x41, 0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F, 0x90, 0x8F,
    ]
    for _ in 0..<20_000 {
      let bytes = (0..<rng.int(0...9)).map { _ in
        rng.int(0...2) == 0 ? UInt8(rng.int(0...255)) : interesting[rng.int(0...interesting.count - 1)]
      }
      let valid = bytes.withUnsafeBufferPointer { UTF8Check.isValid($0) }
      #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
      let prefix = bytes.withUnsafeBufferPointer { UTF8Check.asciiPrefix($0) }
      let end = bytes.firstIndex(of: 0) ?? bytes.count
      switch prefix {
      case .ascii(let length): #expect(length == end && bytes[..<end].allSatisfy { $0 < 0x80 })
      case .notASCII(let length): #expect(length == end && bytes[..<end].contains { $0 >= 0x80 })
      }
    }
  }
}

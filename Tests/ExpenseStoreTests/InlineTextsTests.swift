import ExpenseCore
import Foundation
import GRDB
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// Schema v11: an import stores a description seen once in its row (a BLOB of its bytes) and
/// one that repeats in the dictionary (`DescriptionTexts`); every read gives the text back byte
/// for byte either way, edits keep how a text is stored unless they change it, and a v10 file
/// migrates with every value unchanged.
@Suite final class InlineTextsTests {
  private var folders: [String] = []
  deinit { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }

  func database() throws -> (AppDatabase, String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-inline-\(UUID().uuidString)")
    folders.append(folder.path)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("db.sqlite").path
    return (try AppDatabase(path: path), path)
  }

  /// Rows of `descriptions`, one a day from 2026-09-01, each with its own fingerprint.
  func importTexts(_ db: AppDatabase, _ descriptions: [String], file: String, seed: UInt64) throws {
    let first = try CivilDate.parse("2026-09-01")
    try db.importRows(sourceFile: file) { feeder in
      for (i, text) in descriptions.enumerated() {
        try feeder.insert(
          date: first.adding(days: i % 60), amount: Money(minor: Int64(-100 - i), currency: .usd), description: text,
          category: nil, account: nil, fingerprintHash: seed &+ UInt64(i) &* 0x9E37_79B9, line: i + 2)
      }
    }
  }

  /// How each stored description is kept: text -> the SQLite types of its rows' `descriptionId`.
  func storage(_ db: AppDatabase) throws -> [String: [String]] {
    try db.read { db in
      var found: [String: [String]] = [:]
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT x.description, typeof(r.descriptionId) AS type FROM expense x JOIN expenseRow r ON r.key = x.key
          ORDER BY r.id
          """)
      for row in rows { found[row["description"] as String, default: []].append(row["type"]) }
      return found
    }
  }

  @Test func aTextSeenOnceIsKeptInItsRowAndARepeatedOneInTheDictionary() throws {
    let (db, _) = try database()
    var texts: [String] = []
    for i in 0..<300 {
      texts.append("POS 4417 STARBUCKS #\(10_000 + i) SEATTLE WA")  // each once
      if i % 3 == 0 { texts.append("RENT MAIN ST") }
      if i % 50 == 0 { texts += ["Café", "Cafe\u{301}"] }  // NFC and NFD: two texts
    }
    try importTexts(db, texts, file: "bank.csv", seed: 1)
    let stored = try storage(db)
    #expect(stored["POS 4417 STARBUCKS #10007 SEATTLE WA"] == ["blob"], "seen once: in its row")
    #expect(stored["RENT MAIN ST"]?.first == "blob", "the first time in its row")
    #expect(stored["RENT MAIN ST"]?.dropFirst().allSatisfy { $0 == "integer" } == true, "then by id")
    let dictionary = try db.read { db in try String.fetchAll(db, sql: "SELECT text FROM descriptionText ORDER BY id") }
    #expect(Set(dictionary) == ["RENT MAIN ST", "Café", "Cafe\u{301}"])
    // Every read gives the texts back byte for byte, in file order by id.
    let listed = try db.expenses().sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map { Array($0.description.utf8) }
    #expect(listed == texts.map { Array($0.utf8) })
    let streamed = try db.withExpenseSnapshot { snapshot in
      var all: [[UInt8]] = []
      try snapshot.forEachExpense(ExpenseQuery(order: .oldestFirst)) { all.append(Array($0.description)) }
      return all
    }
    #expect(streamed.sorted { $0.lexicographicallyPrecedes($1) } == listed.sorted { $0.lexicographicallyPrecedes($1) })
    #expect(try db.check().isHealthy)
  }

  /// More distinct texts than the window holds, repeated near and far, some longer than the
  /// window keeps, NFC beside NFD, empty: every text reads back byte for byte, each stored
  /// either way, and the dictionary holds each text at most once.
  @Test func textsTheWindowForgetsStillReadBackExactly() throws {
    let (db, _) = try database()
    var state: UInt64 = 42
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % bound
    }
    let pool = (0..<30_000).map { i -> String in
      switch i % 7 {
      case 0: return "LONG " + String(repeating: "x\(i % 10)", count: 80) + " \(i)"  // past the window's 120 bytes
      case 1: return i % 2 == 0 ? "Cafe\u{301} \(i)" : "Café \(i)"
      case 2: return i == 2 ? "" : "POS \(i) #\(i * 7) SEATTLE"
      default: return "MERCHANT \(i)"
      }
    }
    // Near repeats (a small hot set) and far ones (anywhere in the pool).
    let texts = (0..<40_000).map { _ in next(3) == 0 ? pool[next(50)] : pool[next(pool.count)] }
    try importTexts(db, texts, file: "many.csv", seed: 3)
    let listed = try db.expenses().sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map { Array($0.description.utf8) }
    #expect(listed == texts.map { Array($0.utf8) })
    let (entries, distinct) = try db.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM descriptionText") ?? -1,
        try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT text) FROM descriptionText") ?? -2
      )
    }
    #expect(entries == distinct && entries > 0)
    #expect(try db.check().isHealthy)
  }

  @Test func aLaterImportFindsTheDictionarysTexts() throws {
    let (db, _) = try database()
    try importTexts(db, ["RENT MAIN ST", "RENT MAIN ST", "NETFLIX"], file: "october.csv", seed: 1)
    try importTexts(db, ["RENT MAIN ST", "NETFLIX", "ONCE 123"], file: "november.csv", seed: 99)
    let stored = try storage(db)
    #expect(stored["RENT MAIN ST"] == ["blob", "integer", "integer"], "found in the dictionary the second time")
    #expect(stored["NETFLIX"] == ["blob", "blob"], "once in each file: in its rows, never wrong")
    #expect(stored["ONCE 123"] == ["blob"])
  }

  @Test func anEditKeepsHowADescriptionIsStoredUnlessItChangesIt() throws {
    let (db, _) = try database()
    try importTexts(db, ["ONE", "TWO", "TWO"], file: "bank.csv", seed: 1)
    _ = try db.editExpense(id: 1, ExpenseEdit(category: "Food"))
    #expect(try storage(db)["ONE"] == ["blob"], "a new category leaves the text in its row")
    _ = try db.editExpense(id: 1, ExpenseEdit(description: "ONE EDITED"))
    #expect(try storage(db)["ONE EDITED"] == ["integer"], "a new text goes to the dictionary, as before")
    #expect(try db.expenses().map(\.description).sorted() == ["ONE EDITED", "TWO", "TWO"])
  }

  @Test func aSearchTestsTheTextsKeptInRows() throws {
    let (db, _) = try database()
    try importTexts(db, ["Café Müller 1", "CAFE MULLER 2", "Bakery 3", "Café Müller 1"], file: "bank.csv", seed: 1)
    let filter = ExpenseFilter(text: "cafe muller")
    var query = ExpenseQuery(order: .oldestFirst)
    query.texts = TextTest(name: "contains:cafe muller", ascii: .lowercasedContains("cafe muller")) {
      filter.contains(text: $0)
    }
    let found = try db.withExpenseSnapshot { snapshot in
      var texts: [String] = []
      try snapshot.forEachExpense(query) { texts.append(String(decoding: $0.description, as: UTF8.self)) }
      return texts
    }
    #expect(found.sorted() == ["CAFE MULLER 2", "Café Müller 1", "Café Müller 1"], "only rows that can match")
  }

  @Test func aVersion10DatabaseMigratesWithEveryValueUnchanged() throws {
    let (db, path) = try database()
    try importTexts(db, ["A 1", "B", "B", "Café", "C 2"], file: "bank.csv", seed: 1)
    let list = try db.expenses()
    try db.writer.close()
    // Back to v10: every text in the dictionary, and v10's view.
    try FutureSchema.execute(
      path: path,
      """
      BEGIN;
      INSERT OR IGNORE INTO descriptionText (text)
        SELECT CAST(descriptionId AS TEXT) FROM expenseRow WHERE typeof(descriptionId) = 'blob';
      UPDATE expenseRow SET descriptionId = (SELECT id FROM descriptionText WHERE text = CAST(descriptionId AS TEXT))
        WHERE typeof(descriptionId) = 'blob';
      DROP VIEW expense;
      CREATE VIEW expense AS
        SELECT e.key AS key, e.id AS id, COALESCE(e.date, \(AppDatabase.keyDateSQL("e.key"))) AS date,
               e.amountMinor AS amountMinor, c.code AS currency, d.text AS description, g.name AS category,
               e.account AS account, e.fileId AS fileId, e.sourceLine AS sourceLine,
               e.categorySource AS categorySource
        FROM expenseRow e
        LEFT JOIN currencyCode c ON c.id = e.currencyId
        LEFT JOIN descriptionText d ON d.id = e.descriptionId
        LEFT JOIN categoryName g ON g.id = e.categoryId;
      DELETE FROM grdb_migrations WHERE identifier = 'v11-inline-texts';
      PRAGMA user_version = 10;
      COMMIT;
      """)
    let before = try V6MigrationTests.dump(path)
    let migrated = try AppDatabase(path: path)
    #expect(try V6MigrationTests.dump(path) == before, "every value, type and key unchanged")
    #expect(try migrated.expenses() == list)
    #expect(try migrated.check().isHealthy)
    // The view writes again (its triggers were made with it).
    _ = try migrated.editExpense(id: 1, ExpenseEdit(description: "A edited"))
    #expect(try migrated.expenses().contains { $0.description == "A edited" })
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO
import TestSupport
import Testing

@testable import ExpensePostgres

/// Schema "v9-search-texts": after every kind of write (an import, a row by hand, an edit of
/// its description or account, an undo, a copied ledger) and after the migration of a v8
/// database, every description that is not ASCII and every account of a ledger is a text of
/// it in `expense_text`, which a search reads instead of the rows; and a search finds the rows.
@Suite(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
struct PostgresSearchTextTests {
  /// The texts the invariant asks for, read from the rows.
  static let fromRows = """
    SELECT DISTINCT t FROM expense e,
      LATERAL (VALUES (CASE WHEN octet_length(e.description) <> length(e.description) THEN e.description END),
                      (e.account)) AS v(t)
    WHERE t IS NOT NULL AND e.ledger_id = 
    """

  static func expectTextsHeld(_ store: PostgresStore, _ comment: Comment) throws {
    let (rows, kept) = try store.read { connection in
      (
        try connection.query(PostgresQuery(unsafeSQL: fromRows + String(store.ledger))).map {
          try $0.decode(String.self)
        },
        try connection.query("SELECT text FROM expense_text WHERE ledger_id = \(store.ledger)").map {
          try $0.decode(String.self)
        }
      )
    }
    #expect(!rows.isEmpty, comment)
    #expect(Set(rows).subtracting(kept).isEmpty, "missing \(Set(rows).subtracting(kept).sorted()): \(comment)")
  }

  /// The ids `term` finds, as `list --search` asks the store (then tests each row again).
  static func search(_ store: PostgresStore, _ term: String) throws -> [Int64] {
    let filter = ExpenseFilter(text: term)
    var query = ExpenseQuery(order: .newestFirst)
    query.texts = TextTest(
      name: "contains:" + term, ascii: filter.asciiNeedleText.map { .lowercasedContains($0) } ?? .never
    ) { filter.contains(text: $0) }
    var ids: [Int64] = []
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(query) { row in
        let texts = [row.description, row.category, row.account].compactMap { $0 }
        if texts.contains(where: { filter.contains(text: String(decoding: $0, as: UTF8.self)) }) {
          ids.append(row.id ?? -1)
        }
      }
    }
    return ids.sorted()
  }

  static func importRows(_ store: PostgresStore, file: String, _ rows: [(String, String?)]) throws {
    _ = try store.importRows(sourceFile: file, dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      for (index, (description, account)) in rows.enumerated() {
        let row = ImportedRow(
          line: index + 2, date: CivilDate(year: 2026, month: 9, day: 1 + index % 28)!,
          amount: Money(minor: Int64(-100 - index), currency: .usd), description: description, category: nil,
          account: account, fingerprintHash: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
        if let batch = try batcher.add(row) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
    }
  }

  @Test func everyWriteKeepsItsTextsAndASearchFindsThem() throws {
    let location = try RowLevelSecurityTests.ownedDatabase()
    let store = try PostgresStore(location: location)
    try Self.importRows(
      store, file: "bank.csv",
      [("Café Müller", nil), ("Bakery", "Konto Ä"), ("Café Müller", "Checking"), ("Noodle 麺", nil)])
    try Self.expectTextsHeld(store, "after an import")
    #expect(try Self.search(store, "cafe") == [1, 3])
    #expect(try Self.search(store, "konto a") == [2])
    let hand = try store.addExpense(
      Expense(
        date: try CivilDate.parse("2026-09-10"), amount: Money(minor: -250, currency: .usd),
        description: "Ｆｕｌｌ Ｗｉｄｔｈ", account: "Épargne"))
    try Self.expectTextsHeld(store, "after a row by hand")
    #expect(try Self.search(store, "full width") == [try #require(hand.id)])
    #expect(try Self.search(store, "epargne") == [try #require(hand.id)])
    _ = try store.editExpense(id: 2, ExpenseEdit(description: "Straße Markt", account: "Giro Ö"))
    try Self.expectTextsHeld(store, "after an edit")
    #expect(try Self.search(store, "strasse") == [2])
    #expect(try Self.search(store, "giro o") == [2])
    let snapshot = try store.rowSnapshot(ids: [4])
    _ = try store.deleteExpenses(ids: [4], wholeSplits: false)
    #expect(try Self.search(store, "麺").isEmpty, "a text with no row left finds nothing")
    try store.restoreRows(snapshot)
    try Self.expectTextsHeld(store, "after a delete undone")
    #expect(try Self.search(store, "麺") == [4])

    let copy = try PostgresIdRunTests.copy(store, at: location)
    try Self.expectTextsHeld(copy, "in a copied ledger")
    #expect(try Self.search(copy, "strasse") == [2])
  }

  /// A database made by schema v8 gets its texts from the rows it holds at the migration, which
  /// a reader's open runs too.
  @Test func aVersion8DatabaseGetsTheTextsOfItsRows() throws {
    let (url, connection) = try olderSchemaDatabase(version: 8)
    try connection.execute(
      """
      INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, account)
      VALUES (1, 5, 1, '2026-09-30', -700, 'USD', 'Crème brûlée', NULL),
             (1, 6, 2, '2026-09-30', -800, 'USD', 'plain', 'Checking'),
             (1, 7, 3, '2026-09-30', -900, 'USD', 'Crème brûlée', NULL)
      """)
    try connection.execute("UPDATE ledger SET next_expense_id = 4")
    try connection.execute("COMMIT")
    // A reader opens it first: it migrates, as a read of an older SQLite file does.
    let reader = try PostgresStore(url: url, access: .read)
    #expect(try Self.search(reader, "creme brulee") == [1, 3])
    let store = try PostgresStore(url: url)
    try Self.expectTextsHeld(store, "after the migration")
    let kept = try store.read { connection in
      try connection.query("SELECT text FROM expense_text ORDER BY text").map { try $0.decode(String.self) }
    }
    #expect(kept == ["Checking", "Crème brûlée"], "each text once; an ASCII description is not kept")
    #expect(try Self.search(store, "creme brulee") == [1, 3])
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import TestSupport
import Testing

@testable import ExpensePostgres

/// What the import's `COPY` path and schema v2 must keep: texts arrive byte for byte whatever
/// they hold, a database made by schema v1 migrates, and an expense still cannot name a ledger
/// or an import file that does not exist (checked per statement now, not per row).
@Suite struct ImportCopyTests {
  /// Imports `rows` (description, category, account) dated October 2026 into `store`.
  static func importRows(_ store: PostgresStore, file: String, _ rows: [(String, String?, String?)]) throws {
    _ = try store.importRows(sourceFile: file, dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      for (index, row) in rows.enumerated() {
        let imported = ImportedRow(
          line: index + 2, date: CivilDate(year: 2026, month: 10, day: 1 + index % 28)!,
          amount: Money(minor: -100 - Int64(index), currency: .usd), description: row.0, category: row.1,
          account: row.2, fingerprintHash: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
        if let batch = try batcher.add(imported) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
    }
  }

  /// Every character the `COPY` text format gives a meaning (tab, newline, carriage return,
  /// backslash, the `\N` of NULL, the `\.` that ends data) is stored as written; an empty
  /// account stays empty, distinct from none.
  @Test func textsArriveByteForByte() throws {
    let store = try PostgresStore(url: try PostgresServer.shared().makeDatabase())
    let rows: [(String, String?, String?)] = [
      ("tab\there", "Food", nil), ("line\nbreak", nil, "acct\t1"), ("cr\r\nlf", nil, ""), (#"back\slash"#, "\\N", nil),
      (#"\N"#, #"\."#, "\\"), (#"\."#, "Café ☕️", "x\r"), ("end\\", "Ünïcode 🧾", "\u{1}\u{1F}"),
    ]
    try Self.importRows(store, file: "odd.csv", rows)
    let stored = try store.expenses(month: nil, category: nil, limit: nil).sorted { $0.id ?? 0 < $1.id ?? 0 }
    #expect(stored.count == rows.count)
    for (index, (expense, row)) in zip(stored, rows).enumerated() {
      #expect(expense.description == row.0)
      #expect(expense.category == row.1)
      #expect(expense.account == row.2)
      #expect(expense.source == Expense.Source(file: "odd.csv", line: index + 2))
    }
  }

  /// The rollup's limit holds on the import's path: rows that would bring a stored month's
  /// outflow past 2^62 - 1 (the batcher cannot know what is stored, so the server's trigger
  /// finds it) refuse the whole import, and nothing of it is kept; exactly the limit is taken.
  @Test func aMonthPastTheLimitRefusesTheWholeImport() throws {
    let store = try PostgresStore(url: try PostgresServer.shared().makeDatabase())
    let limit = PostgresSchema.totalLimit
    var calls: UInt64 = 0
    func importing(_ amounts: [Int64]) -> StoreError? {
      calls += 1
      do {
        _ = try store.importRows(sourceFile: "big.csv", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
          var batcher = ImportBatcher()
          for (index, minor) in amounts.enumerated() {
            let row = ImportedRow(
              line: index + 2, date: CivilDate(year: 2026, month: 10, day: 1 + index)!,
              amount: Money(minor: minor, currency: .usd), description: "row \(index) of \(amounts.count)",
              category: "Food", account: nil,
              fingerprintHash: (UInt64(index) + 100 * calls) &* 0x9E37_79B9_7F4A_7C15)
            if let batch = try batcher.add(row) { try writer.write(batch) }
          }
          if let batch = try batcher.finish() { try writer.write(batch) }
        }
        return nil
      } catch {
        return error as? StoreError
      }
    }
    func isTooLarge(_ error: StoreError?) -> Bool {
      if case .totalTooLarge = error { return true }
      return false
    }
    #expect(importing([-(limit - 1)]) == nil)
    #expect(importing([-1]) == nil, "exactly the limit")
    #expect(isTooLarge(importing([-2, -3])))
    let stored = try store.expenses(month: nil, category: nil, limit: nil)
    #expect(stored.map(\.amount.minor).sorted() == [-(limit - 1), -1])
    #expect(try store.check().isHealthy)
  }

  /// A flush's `COPY` runs while the writer goes on: when it fails and the import then fails
  /// for another reason, the `COPY`'s error (earlier in the file) is the one reported, nothing
  /// is kept, and the store's connection serves the next import.
  @Test func aFailedCopyInFlightIsTheErrorReported() throws {
    struct Later: Error {}
    let store = try PostgresStore(url: try PostgresServer.shared().makeDatabase())
    let limit = PostgresSchema.totalLimit
    func row(_ index: Int, _ minor: Int64, salt: UInt64) -> ImportedRow {
      ImportedRow(
        line: index + 2, date: CivilDate(year: 2026, month: 10, day: 1 + index % 28)!,
        amount: Money(minor: minor, currency: .usd), description: "row \(index)", category: "Food", account: nil,
        fingerprintHash: (UInt64(index) + salt) &* 0x9E37_79B9_7F4A_7C15)
    }
    func importing(_ rows: [ImportedRow], thenFail: Bool) throws {
      _ = try store.importRows(sourceFile: "bank.csv", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
        var batcher = ImportBatcher()
        for row in rows { if let batch = try batcher.add(row) { try writer.write(batch) } }
        if thenFail { throw Later() }
        if let batch = try batcher.finish() { try writer.write(batch) }
      }
    }
    try importing([row(0, -(limit - 1), salt: 0)], thenFail: false)
    let count = PostgresImportWriter.flushRows + 3_000
    let many = (0..<count).map { row($0, -1, salt: 1 << 32) }
    var reported: (any Error)?
    do { try importing(many, thenFail: true) } catch { reported = error }
    if case .totalTooLarge = reported as? StoreError {
    } else {
      Issue.record("expected the COPY's totalTooLarge, got \(String(describing: reported))")
    }
    #expect(try store.expenseCount(month: nil) == 1)
    try importing([row(1, 500, salt: 1 << 40)], thenFail: false)
    #expect(try store.expenseCount(month: nil) == 2)
    #expect(try store.check().isHealthy)
  }

  /// A database made by schema v1 (foreign keys on `expense`) migrates at a writer's open: its
  /// rows stay, the foreign keys give way to the statement-level checks, and imports go on.
  @Test func aVersion1DatabaseMigrates() throws {
    let (url, connection) = try olderSchemaDatabase(version: 1)
    try connection.execute("INSERT INTO import_file (ledger_id, name) VALUES (1, 'old.csv')")
    try connection.execute(
      """
      INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, file_id, source_line)
      SELECT 1, 5, 1, '2026-09-30', -700, 'USD', 'old row', id, 2 FROM import_file WHERE name = 'old.csv'
      """)
    try connection.execute("UPDATE ledger SET next_expense_id = 2")
    try connection.execute("COMMIT")
    #expect(try Self.foreignKeysOnExpense(connection) == 2)
    _ = try PostgresStore(url: url)
    #expect(try Self.foreignKeysOnExpense(connection) == 0)
    let version = try connection.query("SELECT max(version)::bigint FROM schema_version").first?.decode(Int64.self)
    #expect(version == Int64(PostgresSchema.version))
    let store = try PostgresStore(url: url)
    try Self.importRows(store, file: "a.csv", [("one", "Food", nil), ("two", nil, nil)])
    let stored = try store.expenses(month: nil, category: nil, limit: nil)
    #expect(stored.map(\.description).sorted() == ["old row", "one", "two"])
    #expect(stored.first { $0.id == 1 }?.source == Expense.Source(file: "old.csv", line: 2))
    // Found by its id through the runs v7 built from the stored rows.
    #expect(try store.expense(id: 1)?.description == "old row")
    #expect(try store.check().isHealthy)
  }

  static func foreignKeysOnExpense(_ connection: BlockingConnection) throws -> Int64? {
    try connection.query(
      "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = 'expense'::regclass"
    ).first?.decode(Int64.self)
  }

  /// An expense naming a missing ledger or import file is refused, and a ledger or file an
  /// expense names cannot be deleted: what the foreign keys did, now once per statement.
  @Test func referencesAreStillChecked() throws {
    let url = try PostgresServer.shared().makeDatabase()
    let store = try PostgresStore(url: url)
    try Self.importRows(store, file: "bank.csv", [("coffee", "Food", nil)])
    let connection = try BlockingConnection(try #require(PostgresLocation(url: url)))
    /// The server's message when `sql` is refused; nil when it runs.
    func refusal(_ sql: String) -> String? {
      do {
        try connection.execute(sql)
        return nil
      } catch StoreError.sqlite(let message) {
        return message
      } catch {
        return "\(error)"
      }
    }
    func insert(ledger: Int, key: Int, file: String) -> String? {
      refusal(
        "INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, file_id) "
          + "VALUES (\(ledger), \(key), \(key), '2026-10-01', -1, 'USD', 'x', \(file))")
    }
    let missing = "an expense names a ledger or an import file that does not exist"
    #expect(insert(ledger: 1, key: 99, file: "999") == missing)
    #expect(insert(ledger: 999, key: 99, file: "NULL") == missing)
    #expect(refusal("UPDATE expense SET file_id = 999") == missing)
    #expect(insert(ledger: 1, key: 99, file: "NULL") == nil)
    #expect(try store.expenseCount(month: nil) == 2)
    // The file the import made is named by its row.
    let named = "the import file is still named by expenses"
    #expect(refusal("DELETE FROM import_file") == named)
    #expect(refusal("UPDATE import_file SET id = id + 10") == named)
    // A second ledger named only by an expense (its rollup row removed, so that no other
    // foreign key holds it): only the new check refuses its delete, until the row goes.
    #expect(refusal("INSERT INTO ledger (id, name) VALUES (2, 'other')") == nil)
    #expect(insert(ledger: 2, key: 98, file: "NULL") == nil)
    #expect(refusal("DELETE FROM month_total WHERE ledger_id = 2") == nil)
    #expect(refusal("DELETE FROM ledger WHERE id = 2") == "the ledger still has expenses")
    #expect(refusal("UPDATE ledger SET id = 3 WHERE id = 2") == "the ledger still has expenses")
    #expect(refusal("DELETE FROM expense WHERE ledger_id = 2") == nil)
    #expect(refusal("DELETE FROM ledger WHERE id = 2") == nil)
    #expect(refusal("DELETE FROM expense") == nil)
    #expect(refusal("DELETE FROM import_file") == nil)
  }
}

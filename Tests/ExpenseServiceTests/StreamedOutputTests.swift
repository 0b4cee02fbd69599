import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// `list` and `export` stream their rows (`writeExpenses`, `writeJournal`); these tests compare
/// what they write with what the array renderers make of the array reads (the output before
/// streaming) on a varied database: every format, filter, width and glyph set, the database
/// in date order (read by key) and damaged (sorted by SQL), through blocks of a few hundred
/// bytes so every row boundary meets a drain.
@Suite struct StreamedOutputTests {
  static let texts = [
    "Coffee", "Café Müller", "SNCF — TGV", "Noodle Bar 麺", "a, \"quoted\"", "=SUM(A1)", "+1", "-minus", "@at",
    "back\\slash", "semi;colon", "", " ", "trailing  ", "\u{1B}[31mred", "\u{202E}gpj.exe", "e\u{301}", "👩‍👩‍👧",
    "한국어", String(repeating: "long ", count: 25), "tab\there", "\u{9B}", "Ärzte ohne Grenzen", "«Roma»",
  ]

  /// A database of about 2,500 rows over three years: several currencies, categories of every
  /// kind, accounts, sources, rows added by hand, budgets with an override.
  static func makeDatabase(in folder: ServiceTests.Folder) throws -> AppDatabase {
    let db = try AppDatabase(path: folder.database)
    var rng = SeededRandom(state: 2026)
    let currencies: [Currency] = [.usd, .usd, .usd, .eur, .jpy, Currency(code: "BHD")!]
    let categories: [String?] = [nil, "Groceries", "Dining; out", "Salary", "Transfers", "東京 食費", "=Formula", "Café"]
    let accounts: [String?] = [nil, nil, "Checking", " Savings ", "Card:Visa", "Konto Ä"]
    for file in ["bank.csv", "card \"x\".csv"] {
      _ = try db.importRows(sourceFile: file, dryRun: false, explainLimit: 0, importedAt: nil) { writer in
        var batcher = ImportBatcher()
        for index in 0..<1_250 {
          let date = CivilDate(year: 2024 + index % 3, month: 1 + index % 12, day: 1 + index * 7 % 28)!
          let minor: Int64 =
            switch rng.int(0...6) {
            case 0: 0
            case 1: Int64(rng.int(1...400_000))
            case 2: -Int64(rng.int(1_000_000...90_000_000_000))
            default: -Int64(rng.int(1...20_000))
            }
          let row = ImportedRow(
            line: index + 2, date: date, amount: Money(minor: minor, currency: currencies[rng.int(0...5)]),
            description: texts[rng.int(0...texts.count - 1)] + (rng.int(0...1) == 0 ? " \(index)" : ""),
            category: categories[rng.int(0...categories.count - 1)], account: accounts[rng.int(0...accounts.count - 1)],
            fingerprintHash: rng.next())
          if let batch = try batcher.add(row) { try writer.write(batch) }
        }
        if let batch = try batcher.finish() { try writer.write(batch) }
      }
    }
    for day in 1...6 {
      _ = try db.addExpense(
        Expense(
          date: CivilDate(year: 2025, month: 6, day: day)!, amount: Money(minor: -Int64(day) * 125, currency: .usd),
          description: texts[day], category: day % 2 == 0 ? "Dining; out" : nil))
    }
    try db.saveBudget(Budget(category: "Groceries", amount: Money(minor: 40_000, currency: .usd)))
    try db.saveBudget(
      Budget(category: "Groceries", amount: Money(minor: 55_000, currency: .usd), month: Month(year: 2025, month: 3)))
    try db.saveBudget(Budget(category: "Café", amount: Money(minor: 9_000, currency: .eur)))
    try db.setCategoryKind("Salary", kind: .income)
    return db
  }

  /// What a streamed call writes, drained in blocks of `blockSize` bytes.
  static func written(_ write: (inout OutputBuffer) throws -> Void) throws -> String {
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    var out = OutputBuffer(blockSize: 300) { sink.bytes.append(contentsOf: $0) }
    try write(&out)
    try out.flush()
    return String(decoding: sink.bytes, as: UTF8.self)
  }

  static func expectListsAsBefore(_ service: ExpenseService, widths: [Int]) throws {
    let filters: [(Month?, String?)] = [
      (nil, nil), (Month(year: 2025, month: 6), nil), (nil, "Groceries"), (nil, "Uncategorized"),
      (Month(year: 2026, month: 2), "dining; OUT"), (Month(year: 1999, month: 1), nil),
    ]
    for (month, category) in filters {
      if let category, category != uncategorizedName, try !service.categoryExists(category) {
        // A filter no category answers is refused, not listed as empty.
        #expect(throws: ServiceError.unknownCategory(name: category, suggestion: nil)) {
          try written { try service.writeExpenses(month: month, category: category, format: .csv, into: &$0) }
        }
        continue
      }
      let expenses = try service.expenses(month: month, category: category)
      let label = "\(String(describing: month)) \(String(describing: category))"
      let csv = try written { try service.writeExpenses(month: month, category: category, format: .csv, into: &$0) }
      #expect(csv == ExpenseCSVRenderer.render(expenses), "csv \(label)")
      let json = try written { try service.writeExpenses(month: month, category: category, format: .json, into: &$0) }
      #expect(json == ExpenseResource.json(expenses) + "\n", "json \(label)")
      for width in widths {
        for glyphs in [GlyphSet.unicode, .ascii] {
          let text = try written {
            try service.writeExpenses(
              month: month, category: category, format: .text(width: width, glyphs: glyphs), into: &$0)
          }
          let before = ExpenseListRenderer(width: width, glyphs: glyphs, ids: true).render(expenses)
          #expect(text == before, "text \(width) \(glyphs) \(label)")
        }
      }
    }
  }

  static func expectJournalsAsBefore(_ service: ExpenseService) throws {
    let store = service.store
    let days = [nil, CivilDate(year: 2025, month: 3, day: 1), CivilDate(year: 2025, month: 11, day: 30)]
    for first in days {
      for last in days where last == nil || first == nil || first! <= last! {
        let input = ExportInput(
          expenses: try store.expenses(from: first, through: last), kinds: try store.categoryKinds(),
          budgets: try store.budgets(), firstDay: first)
        let ledger = try written { try service.writeJournal(.ledger, from: first, through: last, into: &$0) }
        #expect(
          ledger == LedgerRenderer().render(input), "ledger \(String(describing: first))…\(String(describing: last))")
        let beancount = try written { try service.writeJournal(.beancount, from: first, through: last, into: &$0) }
        #expect(
          beancount == BeancountRenderer().render(input),
          "beancount \(String(describing: first))…\(String(describing: last))")
      }
    }
  }

  /// The JSON report, whose expense rows stream, against the whole document encoded at once
  /// (the output before streaming): months with rows, the month holding today, an empty month.
  static func expectReportsAsBefore(_ service: ExpenseService) throws {
    let today = CivilDate(year: 2026, month: 2, day: 14)!
    for month in [Month(year: 2024, month: 1), Month(year: 2025, month: 6), nil, Month(year: 1999, month: 1)] {
      let request = ReportRequest(today: today, month: month, format: .json)
      let states = try ReportService(store: service.store).sectionStates(for: request)
      let report = try ReportLoader(store: service.store).report(month: month ?? today.calendarMonth, today: today)
      let before = JSONRenderer(sections: states).render(report)
      #expect(try service.renderReport(request) == before, "renderReport \(String(describing: month))")
      #expect(
        try written { try service.writeReport(request, into: &$0) } == before,
        "writeReport \(String(describing: month))")
    }
  }

  @Test func listAndExportWriteWhatTheyWroteBefore() throws {
    let folder = try ServiceTests.Folder()
    let service = ExpenseService(store: try Self.makeDatabase(in: folder))
    try Self.expectListsAsBefore(service, widths: [20, 24, 28, 32, 45, 59, 60, 80, 99, 100, 132])
    try Self.expectJournalsAsBefore(service)
    try Self.expectReportsAsBefore(service)
  }

  /// The same on databases a sort is needed for (a legacy key, a hand-edited date) and with
  /// values the fast reader leaves to the general decoder.
  @Test(arguments: [
    """
    INSERT INTO expense (key, id, date, amountMinor, currency, description, category)
      VALUES ((853702 << 43) | 5, 90000, '0001-01-01', -100, 'USD', 'legacy', 'Groceries');
    """,
    "UPDATE expense SET date = '2024-02-02' WHERE id = 700",
    """
    UPDATE expense SET amountMinor = CAST(amountMinor AS REAL) WHERE id % 11 = 0;
    UPDATE expense SET description = CAST(X'41FF42C3' AS TEXT) WHERE id % 13 = 0;
    UPDATE expense SET description = 'nul' || char(0) || 'after' WHERE id % 17 = 0;
    UPDATE expense SET currency = 'gbp' WHERE id % 19 = 0;
    """,
  ])
  func damagedDatabasesWriteWhatTheyWroteBefore(_ sql: String) throws {
    let folder = try ServiceTests.Folder()
    let db = try Self.makeDatabase(in: folder)
    try db.write { db in try db.execute(sql: sql) }
    let service = ExpenseService(store: db)
    try Self.expectListsAsBefore(service, widths: [20, 60, 100])
    try Self.expectJournalsAsBefore(service)
    try Self.expectReportsAsBefore(service)
  }

  @Test func anEmptyDatabase() throws {
    let service = ExpenseService(store: try AppDatabase())
    try Self.expectListsAsBefore(service, widths: [20, 80])
    try Self.expectJournalsAsBefore(service)
    try Self.expectReportsAsBefore(service)
    try service.store.saveBudget(Budget(category: "Rent", amount: Money(minor: 100_000, currency: .usd)))
    try Self.expectJournalsAsBefore(service)
    try Self.expectReportsAsBefore(service)
  }
}

import ExpenseCore
import ExpenseMemory
import ExpensePostgres
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// The stores this suite runs against. A new `LedgerStore` conformance adds a case here and
/// passes every test below unchanged: that is what "a store" means to the service.
enum StoreUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqliteFile
  case sqliteMemory
  /// A fresh database on this process's own server (`PostgresServer`).
  case postgres
  /// Everything in this process's memory (`MemoryStore`): the store that is only storage.
  case memory

  var testDescription: String { rawValue }

  /// Every store, PostgreSQL only where a server may be started (`TestTier`).
  static var allCases: [StoreUnderTest] {
    TestTier.postgres ? [.sqliteFile, .sqliteMemory, .memory, .postgres] : [.sqliteFile, .sqliteMemory, .memory]
  }

  /// A new, empty store (files go in `folder`).
  func make(in folder: ServiceTests.Folder) throws -> any LedgerStore {
    switch self {
    case .sqliteFile: return try AppDatabase(path: folder.database)
    case .sqliteMemory: return try AppDatabase()
    case .postgres: return try PostgresStore(url: try PostgresServer.shared().makeDatabase())
    case .memory: return MemoryStore()
    }
  }
}

/// What every `LedgerStore` must do, written against the protocol only (no SQL, no
/// `AppDatabase` method): the contract the service relies on.
@Suite struct StoreContractTests {
  static let october = Month(year: 2026, month: 10)!
  static func day(_ d: Int) -> CivilDate { CivilDate(year: 2026, month: 10, day: d)! }
  static func usd(_ minor: Int64) -> Money { Money(minor: minor, currency: .usd) }

  /// Imports `rows` (date day, minor, description, category) through the protocol's writer.
  @discardableResult
  static func importRows(
    _ store: any LedgerStore, file: String, dryRun: Bool = false, _ rows: [(Int, Int64, String, String?)],
    splitGroups: [Int] = []
  ) throws -> (inserted: Int, duplicates: Int, record: Int64?) {
    let writer = try store.importRows(sourceFile: file, dryRun: dryRun, explainLimit: 20, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      for (index, row) in rows.enumerated() {
        var imported = ImportedRow(
          line: index + 2, date: day(row.0), amount: usd(row.1), description: row.2, category: row.3, account: nil,
          fingerprintHash: fnv(row.2 + "|\(row.0)|\(row.1)"))
        imported.splitGroup = index < splitGroups.count ? splitGroups[index] : 0
        if let batch = try batcher.add(imported) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
      return writer
    }
    // The record is made when the import finishes, after `body`.
    return (writer.inserted, writer.duplicates, writer.recordID)
  }

  /// A fixed hash of a row's text (Swift's `hashValue` changes from run to run).
  static func fnv(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }

  /// Every batch a writer stores is reported once, when stored, with which of its rows were new:
  /// the matching reads the rows there (`ImportWriter.onBatchWritten`).
  @Test(arguments: StoreUnderTest.allCases)
  func everyBatchWrittenIsReportedOnceWithItsNewRows(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let first: [(Int, Int64, String, String?)] = (1...20).map { (($0 % 28) + 1, -Int64($0), "Shop \($0)", nil) }
    try Self.importRows(store, file: "a.csv", first)
    // Rows 11-20 again, and 20 new ones.
    let second: [(Int, Int64, String, String?)] =
      Array(first[10...]) + (21...40).map { (($0 % 28) + 1, -Int64($0), "Shop \($0)", nil) }
    var reported: [(line: Int, isNew: Bool)] = []
    var calls = 0
    let writer = try store.importRows(sourceFile: "b.csv", dryRun: false, explainLimit: 20, importedAt: nil) {
      writer in
      writer.onBatchWritten = { batch, isNew in
        calls += 1
        for index in batch.rows.indices { reported.append((batch.rows[index].line, isNew[index])) }
      }
      var batcher = ImportBatcher()
      for (index, row) in second.enumerated() {
        let imported = ImportedRow(
          line: index + 2, date: Self.day(row.0), amount: Self.usd(row.1), description: row.2, category: row.3,
          account: nil, fingerprintHash: Self.fnv(row.2 + "|\(row.0)|\(row.1)"))
        if let batch = try batcher.add(imported) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
      try writer.storeWritten()
      return writer
    }
    #expect(calls >= 1)
    #expect(reported.map(\.line).sorted() == Array(2...31))
    #expect(reported.filter(\.isNew).map(\.line).sorted() == Array(12...31))
    #expect(writer.inserted == 20 && writer.duplicates == 10)
  }

  /// The parts of a split transaction stay together: one part is neither deleted nor resized
  /// alone, all parts named go, `wholeSplits` takes the others along; its category is its own.
  @Test(arguments: StoreUnderTest.allCases)
  func splitPartsStayTogether(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let parts: [(Int, Int64, String, String?)] = [
      (2, -12_000, "Superstore", "Groceries"), (2, -4_500, "Superstore", "Household"), (3, -450, "Coffee", nil),
      (4, -800, "Market", "Groceries"), (4, -200, "Market", "Flowers"),
    ]
    try Self.importRows(store, file: "s.qif", parts, splitGroups: [1, 1, 0, 2, 2])
    let ids = try store.expenses(month: nil, category: nil, limit: nil).compactMap(\.id).sorted()
    #expect(ids == [1, 2, 3, 4, 5])
    #expect(throws: StoreError.splitPart(id: 1, parts: [1, 2], change: .delete)) {
      try store.deleteExpenses(ids: [1, 3], wholeSplits: false)
    }
    #expect(throws: StoreError.splitPart(id: 2, parts: [1, 2], change: .amountOrDate)) {
      try store.editExpense(id: 2, ExpenseEdit(amountMinor: -1))
    }
    #expect(try store.editExpense(id: 2, ExpenseEdit(category: "Home")).category == "Home")
    #expect(try store.deleteExpenses(ids: [2, 1], wholeSplits: false).count == 2)
    #expect(try store.deleteExpenses(ids: [5], wholeSplits: true).compactMap(\.id) == [5, 4])
    #expect(try store.expenses(month: nil, category: nil, limit: nil).compactMap(\.id) == [3])
  }

  static let rows: [(Int, Int64, String, String?)] = [
    (1, -120_000, "Rent", "Housing"), (3, -450, "Coffee", "Dining"), (5, -1_200, "Lunch", "Dining"),
    (30, 250_000, "Salary", "Salary"),
  ]

  @Test(arguments: StoreUnderTest.allCases)
  func anEmptyStoreHasNothing(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    #expect(try store.expenses(month: nil, category: nil, limit: nil).isEmpty)
    #expect(try store.expenseCount(month: nil) == 0)
    #expect(try store.budgets().isEmpty)
    #expect(try store.rules().isEmpty)
    #expect(try store.imports().isEmpty)
    #expect(try store.categories().isEmpty)
    #expect(try store.latestMonth() == nil)
    #expect(try store.historyStart().isEmpty)
    #expect(try store.sectionStates().isEmpty)
    #expect(try store.tokens().isEmpty)
    #expect(try store.check().isHealthy)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func handAddedExpensesRoundTrip(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let added = try store.addExpense(
      Expense(date: Self.day(20), amount: Self.usd(-450), description: "Coffee", category: "Dining", account: "Card"))
    let id = try #require(added.id)
    #expect(try store.expense(id: id) == added)
    #expect(try store.categorySource(id: id) != nil)
    #expect(try store.expense(id: id + 1000) == nil)

    let edited = try store.editExpense(id: id, ExpenseEdit(amountMinor: -500, category: "Coffee shops"))
    #expect(edited.amount == Self.usd(-500) && edited.category == "Coffee shops" && edited.description == "Coffee")
    #expect(
      try store.monthlyTotals(from: Self.october, through: Self.october, daily: false).map(\.outflowMinor) == [500])

    #expect(throws: StoreError.self) { try store.deleteExpenses(ids: [id, id + 1000]) }
    #expect(try store.expense(id: id) != nil, "a delete naming an unknown id deletes nothing")
    #expect(try store.deleteExpenses(ids: [id]).map(\.id) == [id])
    #expect(try store.expenseCount(month: nil) == 0)
    #expect(
      try store.monthlyTotals(from: Self.october, through: Self.october, daily: false).allSatisfy {
        $0.outflowMinor == 0 && $0.count == 0
      })
  }

  /// A row an earlier version stored on another day (a card payment dated when booked, now
  /// dated when the card was used) is a duplicate by its former key, in a dry run too, and
  /// its month's totals are not counted twice.
  @Test(arguments: StoreUnderTest.allCases)
  func aRowIsFoundByItsFormerKey(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    try Self.importRows(store, file: "before.sta", [(5, -2_380, "Markthalle", nil)])
    let hash = Self.fnv("Markthalle|5|-2380")
    for dryRun in [true, false] {
      let writer = try store.importRows(sourceFile: "after.sta", dryRun: dryRun, explainLimit: 20, importedAt: nil) {
        writer in
        var batcher = ImportBatcher()
        for (line, hash) in [(2, hash), (3, Self.fnv("another card payment"))] {
          var row = ImportedRow(
            line: line, date: Self.day(3), amount: Self.usd(-2_380), description: "Markthalle / booked 2026-10-05",
            category: nil, account: nil, fingerprintHash: hash)
          row.formerKey = ExpenseKey(date: Self.day(5), fingerprintHash: hash).rawValue
          if let batch = try batcher.add(row) { try writer.write(batch) }
        }
        if let batch = try batcher.finish() { try writer.write(batch) }
        return writer
      }
      #expect((writer.inserted, writer.duplicates) == (1, 1), "\(kind), dry run: \(dryRun)")
    }
    #expect(try store.expenseCount(month: Self.october) == 2)
    #expect(try store.check().isHealthy)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func anImportIsAllOrNothingAndUndoable(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)

    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try store.importRows(sourceFile: "bank.csv", dryRun: false, explainLimit: 20, importedAt: nil) { writer in
        var batcher = ImportBatcher()
        _ = try batcher.add(
          ImportedRow(
            line: 2, date: Self.day(1), amount: Self.usd(-100), description: "Half", category: nil, account: nil,
            fingerprintHash: 42))
        if let batch = try batcher.finish() { try writer.write(batch) }
        throw Stop()
      }
    }
    #expect(try store.expenseCount(month: nil) == 0, "a failed import leaves nothing")
    #expect(try store.imports().isEmpty)

    let dry = try Self.importRows(store, file: "bank.csv", dryRun: true, Self.rows)
    #expect(dry.inserted == 4)
    #expect(try store.expenseCount(month: nil) == 0, "a dry run keeps nothing")

    let first = try Self.importRows(store, file: "bank.csv", Self.rows)
    #expect(first.inserted == 4 && first.duplicates == 0)
    let again = try Self.importRows(store, file: "bank.csv", Self.rows)
    #expect(again.inserted == 0 && again.duplicates == 4, "the same rows again are duplicates")
    #expect(try store.expenseCount(month: Self.october) == 4)
    #expect(try store.latestMonth() == Self.october)
    #expect(try store.historyStart() == [.usd: Self.october])
    let dining = try store.monthlyTotals(from: Self.october, through: Self.october, daily: false)
      .first { $0.category == "Dining" }
    #expect(dining?.outflowMinor == 1_650)
    #expect(try store.expenses(month: Self.october, category: "Dining", limit: nil).count == 2)
    #expect(
      try store.expenses(from: Self.day(2), through: Self.day(5)).map(\.description).sorted() == ["Coffee", "Lunch"])

    let record = try #require(try store.imports().first)
    #expect(record.rows == 4 && record.file == "bank.csv" && record.id == first.record)
    #expect(try store.removeImport(id: record.id) == 4)
    #expect(try store.expenseCount(month: nil) == 0)
    #expect(try store.imports().isEmpty)
    #expect(throws: StoreError.self) { try store.removeImport(id: record.id) }
    #expect(try store.check().isHealthy, "rollups follow every write")
  }

  @Test(arguments: StoreUnderTest.allCases)
  func pagesWalkEveryExpenseOnce(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    try Self.importRows(store, file: "bank.csv", Self.rows)
    var seen: [Int64] = []
    var cursor: String?
    repeat {
      let page = try store.expensePage(month: nil, category: nil, after: cursor, limit: 3)
      seen += page.expenses.compactMap(\.id)
      cursor = page.nextCursor
    } while cursor != nil
    #expect(seen.count == 4 && Set(seen).count == 4)
    #expect(throws: StoreError.self) { try store.expensePage(month: nil, category: nil, after: "nonsense", limit: 3) }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func budgetsCategoriesAndRules(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    try Self.importRows(store, file: "bank.csv", Self.rows)

    try store.saveBudget(Budget(category: "Dining", amount: Self.usd(20_000)))
    try store.saveBudget(Budget(category: "dining", amount: Self.usd(30_000), month: Self.october))
    #expect(try store.budgets().map(\.category) == ["Dining", "Dining"], "one spelling per category")
    try store.removeBudget(category: "Dining", month: Self.october, currency: nil)
    #expect(try store.budgets().map(\.amount) == [Self.usd(20_000)])
    #expect(throws: StoreError.self) { try store.removeBudget(category: "Travel", month: nil, currency: nil) }

    try store.setCategoryKind("Salary", kind: .income)
    #expect(try store.categoryKinds()["Salary"] == .income)
    #expect(try store.categories().first { $0.name == "Dining" }?.expenseCount == 2)
    #expect(try store.categoryNames().suggestion(for: "Dinning") == "Dining")
    #expect(try store.categoryNames().known("dining") == "Dining")
    #expect(throws: StoreError.self) { try store.forgetCategory("Dining") }

    let rule = try store.addRule(pattern: "coffee", category: "Treats", field: .description)
    #expect(try store.rules() == [rule])
    let replaced = try store.putRule(id: rule.id, pattern: "lunch", category: "Treats", field: .description)
    #expect(try store.rules() == [replaced])
    #expect(
      try ExpenseService(store: store).applyRules(dryRun: true).changed == 0,
      "categories from the file are never changed")
    try store.removeRule(id: rule.id)
    #expect(try store.rules().isEmpty)
    #expect(throws: StoreError.self) { try store.removeRule(id: rule.id) }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func settingsProfilesAndSections(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    try store.setDefaultCurrency(.eur)
    #expect(try store.defaultCurrency() == .eur)
    try store.setSetting("accordion", "on")
    #expect(try store.setting("accordion") == "on")
    #expect(try store.setting("nothing") == nil)

    try store.saveProfile(name: "bank", json: #"{"delimiter":";"}"#)
    #expect(try store.profile(named: "bank") == #"{"delimiter":";"}"#)
    #expect(try store.profileNames() == ["bank"])
    #expect(throws: StoreError.self) { try store.profile(named: "other") }

    try store.saveSectionStates(["expenses": true, "trends": false])
    #expect(try store.sectionStates() == ["expenses": true, "trends": false])
    try store.resetSectionStates()
    #expect(try store.sectionStates().isEmpty)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func tokensIdempotencyAndRevision(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let start = try store.revision()
    let token = APIToken(name: "phone", scope: .read, createdAt: "2026-10-01T00:00:00Z", expiresAt: nil)
    try store.createToken(token, hash: "abc")
    #expect(throws: StoreError.self) { try store.createToken(token, hash: "def") }
    #expect(try store.token(hash: "abc")?.name == "phone")
    #expect(try store.token(hash: "nope") == nil)
    try store.revokeToken(name: "phone", at: "2026-10-02T00:00:00Z")
    #expect(try store.token(hash: "abc")?.revokedAt == "2026-10-02T00:00:00Z")
    #expect(throws: StoreError.self) { try store.revokeToken(name: "other", at: "2026-10-02T00:00:00Z") }

    let answer = IdempotentResponse(requestHash: "h", status: 201, body: Data("{}".utf8))
    try store.saveIdempotentResponse(answer, token: "phone", key: "k1", at: "2026-10-02T00:00:00Z")
    try store.saveIdempotentResponse(
      IdempotentResponse(requestHash: "h2", status: 500, body: Data()), token: "phone", key: "k1",
      at: "2026-10-02T00:00:01Z")
    #expect(try store.idempotentResponse(token: "phone", key: "k1") == answer, "the first answer is kept")
    #expect(try store.idempotentResponse(token: "other", key: "k1") == nil, "keys are per token")

    try store.saveBudget(Budget(category: "Dining", amount: Self.usd(100)))
    #expect(try store.revision() > start, "a write raises the revision")
  }

  /// The service's records: ids per kind from 1, never given twice (a removed one's
  /// included), a kind's records apart from another's, every change a new revision, and a
  /// copy of the ledger carries them with their counters.
  @Test(arguments: StoreUnderTest.allCases)
  func recordsKeepTheirIdsForever(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let start = try store.revision()
    #expect(try store.addRecord(kind: "goal", body: #"{"name":"car"}"#).id == 1)
    #expect(try store.addRecord(kind: "goal", body: #"{"name":"trip"}"#).id == 2)
    #expect(try store.addRecord(kind: "move", body: "{}").id == 1, "each kind counts its own")
    #expect(try store.revision() > start)
    #expect(try store.removeRecord(kind: "goal", id: 2))
    #expect(try !store.removeRecord(kind: "goal", id: 2))
    #expect(try store.addRecord(kind: "goal", body: "{}").id == 3, "a removed id is never given again")
    #expect(try store.records(kind: "goal").map(\.id) == [1, 3])
    #expect(try store.records(kind: "goal").first?.body == #"{"name":"car"}"#)
    #expect(try store.records(kind: "nothing").isEmpty)

    let copy = try kind.make(in: try ServiceTests.Folder())
    try store.readLedger { contents, reader in
      try copy.loadLedger(contents) { sink in try reader.forEachBatch(sink) }
    }
    #expect(try copy.records(kind: "goal").map(\.id) == [1, 3])
    #expect(try copy.addRecord(kind: "goal", body: "{}").id == 4, "the copy goes on counting")
  }

  /// A streaming read visits the rows of the array reads, in their order, and passes as many
  /// times as asked over one state of the store.
  @Test(arguments: StoreUnderTest.allCases)
  func aSnapshotStreamsTheArrayReadsRows(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    try Self.importRows(store, file: "bank.csv", Self.rows + [(3, -90, "Tea", "Dining"), (3, -80, "Bun", nil)])
    _ = try store.addExpense(Expense(date: Self.day(3), amount: Self.usd(-70), description: "by hand"))
    func plain(_ expenses: [Expense]) -> [Expense] {
      expenses.map {
        var copy = $0
        copy.categorySource = nil
        return copy
      }
    }
    let passes: [[Expense]] = try store.withExpenseSnapshot { snapshot in
      var passes: [[Expense]] = []
      for query in [
        ExpenseQuery(order: .any), ExpenseQuery(), ExpenseQuery(order: .oldestFirst),
        ExpenseQuery(month: Self.october, category: "Dining"), ExpenseQuery(category: "Uncategorized"),
        ExpenseQuery(from: Self.day(3), through: Self.day(5), order: .oldestFirst),
      ] {
        var rows: [Expense] = []
        try snapshot.forEachExpense(query) { rows.append($0.expense) }
        passes.append(rows)
      }
      return passes
    }
    let all = plain(try store.expenses(month: nil, category: nil, limit: nil))
    #expect(Set(passes[0]) == Set(all) && passes[0].count == all.count)
    #expect(passes[1] == all)
    #expect(passes[2] == plain(try store.expenses(from: nil, through: nil)))
    #expect(passes[3] == plain(try store.expenses(month: Self.october, category: "Dining", limit: nil)))
    #expect(passes[4] == plain(try store.expenses(month: nil, category: "Uncategorized", limit: nil)))
    #expect(passes[5] == plain(try store.expenses(from: Self.day(3), through: Self.day(5))))
  }

  @Test(arguments: [StoreUnderTest.sqliteFile])
  func aBackupHoldsEveryExpense(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    try Self.importRows(store, file: "bank.csv", Self.rows)
    let copy = folder.url.appendingPathComponent("copy.sqlite").path
    try store.backup(into: copy)
    let restored = try AppDatabase(path: copy, access: .read)
    #expect(
      try restored.expenses(month: nil, category: nil, limit: nil)
        == store.expenses(
          month: nil, category: nil, limit: nil))
    #expect(store.filePath == folder.database)
  }
}

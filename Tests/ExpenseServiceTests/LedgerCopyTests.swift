import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// `ExpenseService.copyLedger` (`expenses copy`) in process, against a real PostgreSQL: a
/// SQLite file with everything a ledger can hold goes to PostgreSQL and back to a new file, and
/// all three hold the same tables (read back whole) and print the same bytes.
@Suite struct LedgerCopyTests {
  static let today = CivilDate(year: 2026, month: 10, day: 20)!

  /// A ledger with every kind of content: two imports (a CSV, a QIF with split transactions),
  /// rows added by hand (one deleted: a gap in the ids), a category set by hand, budgets (a
  /// default and a month's), kinds, rules with a gap in their ids, applied; section states,
  /// settings, a profile, two tokens (one revoked).
  static func fill(_ service: ExpenseService, _ folder: ServiceTests.Folder) throws {
    let store = service.store
    _ = try service.importFile(ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank)))
    _ = try service.importFile(ImportRequest(path: StatementImportTests.path("qif/splits_and_transfers.qif")))
    let hand = try store.addExpense(
      Expense(
        date: CivilDate(year: 2026, month: 10, day: 7)!, amount: Money(minor: -850, currency: .usd),
        description: "Market stall", category: "Groceries"))
    let gone = try store.addExpense(
      Expense(
        date: CivilDate(year: 2026, month: 10, day: 8)!, amount: Money(minor: -100, currency: .usd),
        description: "Parking"))
    _ = try store.deleteExpenses(ids: [try #require(gone.id)])
    _ = try service.editExpense(id: 3, date: nil, amount: nil, description: nil, category: "Income", account: nil)
    _ = hand
    try store.saveBudget(Budget(category: "Dining", amount: Money(minor: 30_000, currency: .usd)))
    try store.saveBudget(
      Budget(category: "Dining", amount: Money(minor: 45_000, currency: .usd), month: Month(year: 2026, month: 10)))
    try store.saveBudget(Budget(category: "Housing", amount: Money(minor: 120_000, currency: .eur)))
    try store.setCategoryKind("Income", kind: .income)
    _ = try store.addRule(pattern: "lunch", category: "Dining", field: .description)
    let dropped = try store.addRule(pattern: "zzz", category: "Misc", field: .description)
    _ = try store.addRule(pattern: "rent", category: "Housing", field: .description)
    try store.removeRule(id: dropped.id)
    _ = try ExpenseService(store: store).applyRules(dryRun: false)
    try store.saveSectionStates(["trends": true, "expenses": false])
    try store.setSetting("accordion", "on")
    try store.saveProfile(name: "bank", json: #"{"dateFormat":"YYYY-MM-DD"}"#)
    try store.createToken(
      APIToken(name: "phone", scope: .read, createdAt: "2026-10-01T08:00:00Z", expiresAt: "2027-10-01T08:00:00Z"),
      hash: String(repeating: "ab", count: 32))
    try store.createToken(
      APIToken(name: "laptop", scope: .write, createdAt: "2026-10-02T08:00:00Z"),
      hash: String(repeating: "cd", count: 32))
    try store.revokeToken(name: "laptop", at: "2026-10-03T08:00:00Z")
  }

  /// Everything a store holds for its ledger, read back whole through `readLedger`.
  static func dump(_ store: any LedgerStore) throws -> (LedgerContents, [StoredExpense]) {
    try store.readLedger { contents, reader in
      var rows: [StoredExpense] = []
      try reader.forEachBatch { rows += $0 }
      return (contents, rows)
    }
  }

  /// What a user sees of a store: the report's JSON, the list as CSV, the ledger export.
  static func printed(_ service: ExpenseService) throws -> [String] {
    let report = try service.renderReport(ReportRequest(today: today, month: Month(year: 2026, month: 10)))
    let csv = try StreamedOutputTests.written {
      try service.writeExpenses(month: nil, category: nil, format: .csv, into: &$0)
    }
    let journal = try StreamedOutputTests.written {
      try service.writeJournal(.ledger, from: nil, through: nil, into: &$0)
    }
    return [report, csv, journal]
  }

  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason))) func aLedgerGoesToPostgresAndBackExactly()
    throws
  {
    let folder = try ServiceTests.Folder()
    let original = try UseCaseTests.service(folder)
    try Self.fill(original, folder)
    let url = try PostgresServer.shared().makeDatabase()

    let there = try ExpenseService.copyLedger(from: folder.database, to: url, ledger: "home")
    #expect(there.expenses == 11 && there.budgets == 3 && there.rules == 2 && there.imports == 2 && there.tokens == 2)
    let postgres = try ExpenseService.open(path: url + "&ledger=home", access: .read, clock: UseCaseTests.clock)
    let back = folder.url.appendingPathComponent("back.sqlite").path
    let summary = try ExpenseService.copyLedger(from: url, to: back, ledger: "home")
    #expect(
      summary
        == LedgerCopySummary(
          expenses: 11, budgets: 3, rules: 2, imports: 2, tokens: 2, source: ExpenseService.shown(path: url),
          target: back))
    let returned = try ExpenseService.open(path: back, access: .read, clock: UseCaseTests.clock)

    let (contents, rows) = try Self.dump(original.store)
    #expect(rows.count == 11 && contents.splitParts.count == 5 && contents.nextRuleID == 4)
    #expect(contents.rules.map(\.id) == [1, 3] && contents.nextExpenseID == 13)
    for copy in [postgres, returned] {
      let (copied, copiedRows) = try Self.dump(copy.store)
      #expect(copied == contents)
      #expect(copiedRows == rows)
      #expect(try Self.printed(copy) == Self.printed(original))
      #expect(try copy.store.categorySource(id: 3) == .hand)
    }
    // The default ledger of the PostgreSQL database was not touched.
    #expect(try ExpenseService.open(path: url, access: .read).store.expenseCount(month: nil) == 0)

    // Re-importing the original file into a copy finds every row a duplicate; the next ids go on.
    for target in [url + "&ledger=home", back] {
      let copy = try ExpenseService.open(path: target, access: .write, clock: UseCaseTests.clock)
      let again = try copy.importFile(ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank)))
      #expect(again.new == 0 && again.duplicates == 4)
      #expect(try copy.store.addRule(pattern: "x", category: "X", field: .account).id == 4)
      let added = try copy.store.addExpense(
        Expense(date: Self.today, amount: Money(minor: -1, currency: .usd), description: "after"))
      #expect(added.id == 13)
    }
  }

  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
  func aCopyGoesOnlyIntoAnEmptyLedgerAndAFailureLeavesNothing() throws {
    let folder = try ServiceTests.Folder()
    let original = try UseCaseTests.service(folder)
    try Self.fill(original, folder)
    let url = try PostgresServer.shared().makeDatabase()
    _ = try ExpenseService.copyLedger(from: folder.database, to: url, ledger: nil)
    #expect(try ExpenseService.open(path: url, access: .read).store.expenseCount(month: nil) == 11)
    let before = try Self.dump(ExpenseService.open(path: url, access: .read).store)

    #expect(
      throws: StoreError.ledgerNotEmpty(
        path: ExpenseService.shown(path: url), ledger: "default",
        what:
          "11 expenses, 3 budgets, 2 rules, 2 imports, 3 category kinds, 1 import profile, 2 tokens, 1 setting, 2 section states, 3 history changes"
      )
    ) {
      try ExpenseService.copyLedger(from: folder.database, to: url, ledger: nil)
    }
    let after = try Self.dump(ExpenseService.open(path: url, access: .read).store)
    #expect(after.0 == before.0 && after.1 == before.1)

    // Into another ledger of the same database, the token hashes collide (they are unique
    // across ledgers): the copy fails at its last step, and neither rows nor the ledger it
    // created are left.
    #expect(throws: StoreError.self) {
      try ExpenseService.copyLedger(from: folder.database, to: url, ledger: "second")
    }
    #expect(throws: StoreError.noLedger(path: ExpenseService.shown(path: url + "&ledger=second"), ledger: "second")) {
      try ExpenseService.open(path: url + "&ledger=second", access: .read)
    }
  }

  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason))) func everyRefusalNamesItsReason() throws {
    let folder = try ServiceTests.Folder()
    let original = try UseCaseTests.service(folder)
    try Self.fill(original, folder)
    let url = try PostgresServer.shared().makeDatabase()
    _ = try ExpenseService.open(path: url, access: .write)
    let missing = folder.url.appendingPathComponent("missing.sqlite").path
    #expect(throws: StoreError.noDatabase(path: missing)) {
      try ExpenseService.copyLedger(from: missing, to: url, ledger: nil)
    }
    #expect(throws: StoreError.noLedger(path: ExpenseService.shown(path: url + "&ledger=nope"), ledger: "nope")) {
      try ExpenseService.copyLedger(from: url, to: folder.url.appendingPathComponent("n.sqlite").path, ledger: "nope")
    }
    let existing = try folder.file("taken.sqlite", "keep me")
    #expect(throws: ServiceError.copyTargetExists(path: existing, what: "a regular file")) {
      try ExpenseService.copyLedger(from: url, to: existing, ledger: nil)
    }
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
    #expect(throws: ServiceError.copyTargetExists(path: folder.url.path, what: "a directory")) {
      try ExpenseService.copyLedger(from: url, to: folder.url.path, ledger: nil)
    }
    let link = folder.url.appendingPathComponent("link.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nowhere")
    #expect(throws: ServiceError.copyTargetExists(path: link, what: "a symbolic link")) {
      try ExpenseService.copyLedger(from: url, to: link, ledger: nil)
    }
    #expect(throws: ServiceError.copyTargetExists(path: "/dev/null", what: "a character device")) {
      try ExpenseService.copyLedger(from: url, to: "/dev/null", ledger: nil)
    }
    #expect(throws: ServiceError.invalidStoreURL(option: "--to")) {
      try ExpenseService.copyLedger(from: folder.database, to: "postgres://nobody", ledger: nil)
    }
    #expect(throws: ServiceError.invalidStoreURL(option: "--from")) {
      try ExpenseService.copyLedger(from: "postgresql://me:secret@host:99999/db", to: url, ledger: nil)
    }
    #expect(throws: ServiceError.self) {
      try ExpenseService.copyLedger(from: folder.database, to: existing + ".new", ledger: "home")
    }
    #expect(throws: ServiceError.self) { try ExpenseService.copyLedger(from: url, to: url, ledger: "home") }
    // Nothing was created by any refusal.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names.filter { !$0.hasPrefix("db.sqlite") && $0 != "bank.csv" } == ["link.sqlite", "taken.sqlite"])
  }
}

/// The same file imported into SQLite and into PostgreSQL, twice, gives the same summaries and
/// prints the same bytes: a file larger than one PostgreSQL flush, out of date order; the second
/// import finds every row a duplicate and names the same stored rows.
@Suite struct PostgresImportParityTests {
  static func file(rows: Int) -> String {
    var lines = ["Date,Description,Amount,Category"]
    for i in 0..<rows {
      let date = String(format: "2025-%02d-%02d", 1 + (i / 28) % 12, 1 + (i * 7) % 28)
      lines.append("\(date),Shop \(i % 97),-\(1 + i % 50).\(String(format: "%02d", i % 100)),Cat \(i % 5)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason))) func aFileImportsAlikeIntoBothStores()
    throws
  {
    let folder = try ServiceTests.Folder()
    let path = try folder.file("big.csv", Self.file(rows: 20_000))
    let sqlite = try UseCaseTests.service(folder)
    let postgres = try ExpenseService.open(
      path: try PostgresServer.shared().makeDatabase(), access: .write, clock: UseCaseTests.clock)
    var summaries: [[ImportSummary]] = []
    for service in [sqlite, postgres] {
      var request = ImportRequest(path: path)
      request.detailLimit = 100
      summaries.append([try service.importFile(request), try service.importFile(request)])
    }
    #expect(summaries[0][0].new == 20_000 && summaries[0][1].duplicates == 20_000)
    for (one, other) in zip(summaries[0], summaries[1]) {
      #expect(one.new == other.new && one.duplicates == other.duplicates)
      #expect(one.duplicateDetails == other.duplicateDetails)
    }
    #expect(summaries[1][1].duplicateDetails.first == ImportDuplicate(line: 2, existingSource: "big.csv:2"))
    #expect(try LedgerCopyTests.printed(postgres) == LedgerCopyTests.printed(sqlite))
    let (_, sqliteRows) = try LedgerCopyTests.dump(sqlite.store)
    let (_, postgresRows) = try LedgerCopyTests.dump(postgres.store)
    #expect(sqliteRows == postgresRows)
  }
}

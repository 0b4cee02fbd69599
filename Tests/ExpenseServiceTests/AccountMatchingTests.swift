import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseSQLite
import ExpenseStore
import Foundation
import ServiceTestSupport
import Testing

@testable import ExpenseService

/// One person's accounts over three months (`Fixtures/accounts`): a checking account's CSV,
/// its card's OFX (September and October) and the same card's QIF (October and November),
/// imported one after the other on every store. The card's October rows are in both card
/// files, with posting dates a day later and other wordings in the QIF; the checking account
/// pays the card twice. Truth for October: $1,763.45 spent (rent, two groceries, a market, an
/// order, two coffees), the two card payments neither spending nor income.
@Suite struct AccountMatchingTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/accounts")
  static let october = Month(year: 2026, month: 10)!

  static func run(_ store: any LedgerStore, _ name: String, keep: Bool = false, dryRun: Bool = false) throws
    -> ImportSummary
  {
    var request = ImportRequest(path: folder.appendingPathComponent(name).path)
    request.keepProbableDuplicates = keep
    request.dryRun = dryRun
    return try ImportService(store: store).run(request)
  }

  /// October's sums per category (nil: uncategorized) as (out, in) minor units.
  static func october(_ store: any LedgerStore) throws -> [String?: (Int64, Int64)] {
    var sums: [String?: (Int64, Int64)] = [:]
    for total in try store.monthlyTotals(from: october, through: october, daily: false) {
      sums[total.category] = (total.outflowMinor, total.inflowMinor)
    }
    return sums
  }

  @Test(arguments: StoreUnderTest.allCases)
  func oneTransactionFromTwoFilesCountsOnce(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    #expect(try Self.run(store, "checking.csv").new == 8)
    #expect(try Self.run(store, "card-sep-oct.ofx").new == 8)
    let dry = try Self.run(store, "card-oct-nov.qif", dryRun: true)
    #expect(dry.new == 2 && dry.probableDuplicates.map(\.line) == [2, 6, 10, 14, 18])
    #expect(try store.expenses(month: nil, category: nil, limit: nil).count == 16, "a dry run writes nothing")
    let qif = try Self.run(store, "card-oct-nov.qif")
    #expect(qif.new == 2 && qif.duplicates == 0)
    // The two identical coffees of one day are matched one to one: two rows, not four or one.
    #expect(qif.probableDuplicates.map(\.line) == [2, 6, 10, 14, 18])
    #expect(qif.probableDuplicates.map(\.existingSource).allSatisfy { $0.hasPrefix("card-sep-oct.ofx:") })
    #expect(Set(qif.probableDuplicates.map(\.existingId)).count == 5)
    let text = qif.text(dryRun: false)
    #expect(text.contains("Skipped 5 probable duplicates") && text.contains("--keep-probable-duplicates"))
    #expect(try store.expenses(month: nil, category: nil, limit: nil).count == 18)
    #expect(try store.imports().last?.rows == 2, "the record counts the rows kept")
    let sums = try Self.october(store)
    #expect(sums[nil]?.0 == 176_345, "October's spending is the truth")
    #expect(sums["Transfers"]?.0 == 31_240 && sums["Transfers"]?.1 == 31_240)
    // Importing the QIF again adds nothing: two exact duplicates, five probable ones again.
    let again = try Self.run(store, "card-oct-nov.qif")
    #expect(again.new == 0 && again.duplicates == 2 && again.probableDuplicates.count == 5)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func keepProbableDuplicatesKeepsThem(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    _ = try Self.run(store, "card-sep-oct.ofx")
    let kept = try Self.run(store, "card-oct-nov.qif", keep: true)
    #expect(kept.new == 7 && kept.probableDuplicates.count == 5 && kept.probableDuplicatesKept)
    #expect(kept.text(dryRun: false).contains("Kept 5 probable duplicates (--keep-probable-duplicates)"))
    #expect(try store.expenses(month: nil, category: nil, limit: nil).count == 15)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func transfersArePairedNamedAndUndone(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = ExpenseService(store: store)
    _ = try Self.run(store, "checking.csv")
    let card = try Self.run(store, "card-sep-oct.ofx")
    #expect(card.transfers.map(\.pairedWithId) == [3, 6])
    let pairs = try service.transferPairs()
    #expect(pairs.map { [$0.pair.outId, $0.pair.inId] } == [[3, 11], [6, 15]])
    for id: Int64 in [3, 6, 11, 15] {
      #expect(try store.expense(id: id)?.category == "Transfers")
      #expect(try store.categorySource(id: id) == .transfer)
    }
    #expect(try store.categoryKinds()["Transfers"] == .transfer)
    // The checking side of the second payment had no category: unpairing gives it back none.
    let undone = try service.unpairTransfer(id: 15)
    #expect(undone.outId == 6 && undone.outCategory == nil && undone.inCategory == "Transfers")
    #expect(try store.expense(id: 6)?.category == nil)
    #expect(try store.categorySource(id: 6) == CategorySource.none)
    #expect(try store.expense(id: 15)?.category == "Transfers", "a transfer pattern's category before the pair")
    #expect(try Self.october(store)[nil]?.0 == 176_345 + 31_240, "the payment counts as spending again")
    #expect(throws: StoreError.notPaired(15)) { try service.unpairTransfer(id: 15) }
    // Removing the card's import dissolves the other pair: the checking row keeps its own.
    let record = try #require(try store.imports().last?.id)
    _ = try service.removeImport(id: record)
    #expect(try store.transferPairs().isEmpty)
    #expect(try store.expense(id: 3)?.category == "Transfers")
    #expect(try store.categorySource(id: 3) == .rule)
  }

  /// The rows' JSON names the other side of each pair: `list --format json` (streamed), the
  /// JSON report's rows, and the objects the API serves.
  @Test(arguments: StoreUnderTest.allCases)
  func rowsJSONNamesThePair(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = ExpenseService(store: store)
    _ = try Self.run(store, "checking.csv")
    _ = try Self.run(store, "card-sep-oct.ofx")
    let listed = try StreamedOutputTests.written {
      try service.writeExpenses(month: nil, category: nil, format: .json, into: &$0)
    }
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
    let named = Dictionary(
      uniqueKeysWithValues: rows.compactMap { row in
        (row["transferWith"] as? Int).map { (row["id"] as? Int ?? 0, $0) }
      })
    #expect(named == [3: 11, 11: 3, 6: 15, 15: 6])
    let inOrder = try rows.map { try service.expense(id: Int64($0["id"] as? Int ?? 0)) }
    #expect(listed == ExpenseResource.json(inOrder) + "\n", "the streamed bytes are the resource's")
    #expect(try service.expense(id: 6).transferWith == 15)
    let report = try service.renderReport(
      ReportRequest(today: CivilDate(year: 2026, month: 11, day: 28)!, month: Self.october))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
    let reported = (object["expenses"] as? [[String: Any]] ?? []).compactMap { $0["transferWith"] as? Int }
    #expect(Set(reported) == [6, 15])
  }

  @Test func reportDetailsNameThePair() throws {
    let folder = try ServiceTests.Folder()
    let store = try AppDatabase(path: folder.database)
    _ = try Self.run(store, "checking.csv")
    _ = try Self.run(store, "card-sep-oct.ofx")
    let words = CategoryExplainer(rules: [], pairs: try store.transferPairs()).words(
      for: try #require(try store.expense(id: 6)).withSource(.transfer))
    #expect(words == "a transfer paired with #15 (undo: expenses transfers unpair 6)")
  }

  // MARK: The policy, row by row

  static func added(_ line: Int, _ day: Int, _ minor: Int64, _ text: String, account: String? = nil)
    -> ImportMatching.Added
  {
    ImportMatching.Added(
      key: Int64(line), line: line, date: CivilDate(year: 2026, month: 10, day: day)!,
      amount: Money(minor: minor, currency: .usd), description: text, account: account, category: nil,
      categorySource: .none)
  }

  static func stored(
    _ id: Int64, _ day: Int, _ minor: Int64, _ text: String, account: String? = nil, file: String = "a.ofx",
    category: String? = nil
  ) -> NeighbourRow {
    NeighbourRow(
      key: 1000 + id, id: id, date: CivilDate(year: 2026, month: 10, day: day)!,
      amount: Money(minor: minor, currency: .usd), description: text, account: account, category: category,
      categorySource: category == nil ? .none : .rule, source: Expense.Source(file: file, line: Int(id)),
      paired: false)
  }

  static func october(_ first: Int, _ last: Int) -> ClosedRange<CivilDate> {
    CivilDate(year: 2026, month: 10, day: first)!...CivilDate(year: 2026, month: 10, day: last)!
  }

  @Test func probableDuplicatesMatchOneToOne() {
    var matching = ImportMatching(file: "b.qif", kinds: [:])
    matching.fileSpan = Self.october(2, 30)
    matching.storedSpans = ["a.ofx": [Self.october(1, 20)]]
    let coffees = [
      Self.added(2, 4, -475, "Starbucks Coffee"), Self.added(6, 4, -475, "Starbucks Coffee"),
      Self.added(9, 5, -475, "Starbucks Coffee"),
    ]
    let stored = [
      Self.stored(1, 3, -475, "STARBUCKS #1234 SEATTLE"), Self.stored(2, 3, -475, "STARBUCKS #1234 SEATTLE"),
    ]
    let matches = matching.probableDuplicates(coffees, stored: stored)
    #expect(matches.map(\.added.line) == [2, 6], "two stored coffees absorb two, the third is new")
    #expect(Set(matches.map(\.stored.id)) == [1, 2])
    // Another payee, another amount, five days apart, another account, or a row added by
    // hand: no match.
    #expect(matching.probableDuplicates([Self.added(2, 4, -475, "Blue Bottle")], stored: stored).isEmpty)
    #expect(matching.probableDuplicates([Self.added(2, 4, -476, "Starbucks")], stored: stored).isEmpty)
    #expect(matching.probableDuplicates([Self.added(2, 8, -475, "Starbucks")], stored: stored).isEmpty)
    #expect(
      matching.probableDuplicates(
        [Self.added(2, 4, -475, "Starbucks", account: "Visa")],
        stored: [Self.stored(1, 3, -475, "Starbucks", account: "Amex")]
      ).isEmpty)
    var byHand = Self.stored(1, 3, -475, "Starbucks")
    byHand.source = nil
    #expect(matching.probableDuplicates([Self.added(2, 4, -475, "Starbucks")], stored: [byHand]).isEmpty)
  }

  /// Consecutive statements share no period: a fee paid every day is not a duplicate of the
  /// day before because the day before is in last month's file.
  @Test func consecutiveStatementsHaveNoProbableDuplicates() {
    var matching = ImportMatching(file: "november.csv", kinds: [:])
    matching.fileSpan = Self.october(29, 31)
    matching.storedSpans = ["october.csv": [Self.october(1, 29)]]
    let parking = [Self.added(2, 30, -500, "CITY PARKING")]
    let stored = [Self.stored(1, 29, -500, "CITY PARKING", file: "october.csv")]
    #expect(matching.probableDuplicates(parking, stored: stored).isEmpty, "one day shared")
    matching.storedSpans = ["october.csv": [Self.october(1, 31)]]
    #expect(matching.probableDuplicates(parking, stored: stored).count == 1, "three days shared: an overlapping export")
  }

  @Test func payeesMatchOnlyOnWordsThatNameThem() {
    #expect(PayeeMatch.same("STARBUCKS #1234 SEATTLE", "Starbucks Coffee"))
    #expect(PayeeMatch.same("TRADER JOE S #552", "Trader Joe's"))
    #expect(PayeeMatch.same("SQ *BLUE BOTTLE", "Blue Bottle Coffee"))
    #expect(PayeeMatch.same("Netflix.com", "NETFLIX.COM"))
    #expect(!PayeeMatch.same("POS PURCHASE 4412", "POS PURCHASE 9921"), "card words and numbers name nobody")
    #expect(!PayeeMatch.same("AMZN Mktp US", "Amazon.com"))
    #expect(!PayeeMatch.same("Import 0 row 1", "Import 1 row 1"), "numbered rows of two files are two rows")
    #expect(!PayeeMatch.same("STARBUCKS #1234 SEATTLE", "STARBUCKS #881 SEATTLE"), "two stores of a chain")
    #expect(PayeeMatch.same("TRADER JOE S #552", "Trader Joes 0552 Portland"))
    #expect(!PayeeMatch.same("", ""))
  }

  @Test func transfersPairOnlyWhenUnambiguous() {
    let matching = ImportMatching(file: "card.ofx", kinds: [:])
    let payment = Self.added(5, 16, 31_240, "PAYMENT - THANK YOU")
    let checking = Self.stored(6, 14, -31_240, "ONLINE PAYMENT TO VISA 8812", file: "checking.csv")
    #expect(matching.transferPairs([payment], stored: [checking]).map(\.out.key) == [checking.key])
    // Two payments of one amount from checking within the window: which one is not guessed.
    let second = Self.stored(7, 15, -31_240, "ONLINE PAYMENT TO AMEX", file: "checking.csv")
    #expect(matching.transferPairs([payment], stored: [checking, second]).isEmpty)
    // A purchase and an unrelated refund of the same amount: no move words, no pair.
    let purchase = Self.stored(8, 14, -4_530, "GREEN GROCER", file: "checking.csv")
    #expect(matching.transferPairs([Self.added(5, 15, 4_530, "REFUND GREEN GROCER")], stored: [purchase]).isEmpty)
    // The same file and no accounts named: one account, never a transfer to itself.
    let sameFile = Self.stored(9, 14, -31_240, "PAYMENT", file: "card.ofx")
    #expect(matching.transferPairs([payment], stored: [sameFile]).isEmpty)
    // A category the user gave by hand, or an expense category, is never taken.
    var byHand = checking
    byHand.categorySource = .hand
    #expect(matching.transferPairs([payment], stored: [byHand]).isEmpty)
    let rent = Self.stored(6, 14, -31_240, "ONLINE PAYMENT RENT", file: "checking.csv", category: "Rent")
    #expect(matching.transferPairs([payment], stored: [rent]).isEmpty)
  }
}

extension Expense {
  fileprivate func withSource(_ source: CategorySource) -> Expense {
    var copy = self
    copy.categorySource = source
    return copy
  }
}

/// `accounts rename`: one name for an account, on its rows and on later imports of files that
/// name it the old way, while files imported before stay recognised.
@Suite struct AccountRenameTests {
  @Test(arguments: StoreUnderTest.allCases)
  func aRenamedAccountKeepsItsNameInLaterImports(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let service = ExpenseService(store: store)
    _ = try AccountMatchingTests.run(store, "card-sep-oct.ofx")
    #expect(try service.accounts().map(\.name) == ["Card \u{2026}8812"])
    #expect(throws: StoreError.accountNotFound("9999")) { try service.renameAccount("9999", to: "Visa") }
    let renamed = try service.renameAccount("8812", to: "Visa")
    #expect(renamed.account == "Card \u{2026}8812" && renamed.rows == 8)
    #expect(try service.accounts().map { [$0.name, String($0.rows)] } == [["Visa", "8"]])
    #expect(try store.accountNames() == ["Card \u{2026}8812": "Visa"])
    // The same file again: its rows are found (the identity is the file's account number).
    #expect(try AccountMatchingTests.run(store, "card-sep-oct.ofx").new == 0)
    // Another export of the card (other transaction ids): its rows are stored as Visa's.
    let text = try String(
      contentsOf: AccountMatchingTests.folder.appendingPathComponent("card-sep-oct.ofx"), encoding: .utf8)
    let other = try folder.file("card-again.ofx", text.replacingOccurrences(of: "<FITID>88120", with: "<FITID>99120"))
    var request = ImportRequest(path: other)
    request.keepProbableDuplicates = true
    #expect(try ImportService(store: store).run(request).new == 8)
    #expect(try service.accounts().map { [$0.name, String($0.rows)] } == [["Visa", "16"]])
    // Renaming again moves the remembered name along.
    _ = try service.renameAccount("Visa", to: "Household Visa")
    #expect(try store.accountNames() == ["Card \u{2026}8812": "Household Visa", "Visa": "Household Visa"])
  }
}

/// Each store reports its own schema version (what `/health` answers): SQLite's `user_version`,
/// PostgreSQL's `schema_version`, the memory store's own 1, never one store's for another.
@Suite struct SchemaVersionTests {
  @Test(arguments: StoreUnderTest.allCases)
  func theStoreSaysItsOwnSchema(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let expected = [StoreUnderTest.postgres: 9, .memory: 1][kind] ?? 11
    #expect(ExpenseService(store: store).schemaVersion == expected)
  }
}

/// A file of several accounts imported into an empty ledger: its rows are far from every
/// stored row, and a transfer between two of its accounts is still paired, whichever side
/// carries the words, while rows with a category of their own are left alone.
@Suite struct InFileTransferTests {
  static let csv = """
    Date,Description,Amount,Account,Category
    2026-10-02,ONLINE PAYMENT TO VISA,-250.00,Checking,
    2026-10-03,Visa ending 8812,250.00,Card,
    2026-10-05,Corner Grocery,-42.10,Card,Groceries
    2026-10-06,Corner Grocery refund,42.10,Checking,Groceries
    2026-10-07,Salary ACME,2000.00,Checking,
    """

  @Test(arguments: StoreUnderTest.allCases)
  func aTransferBetweenTwoAccountsOfOneFileIsPaired(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let summary = try ImportService(store: store).run(ImportRequest(path: try folder.file("all.csv", Self.csv)))
    #expect(summary.new == 5)
    #expect(summary.transfers.map(\.line) == [2, 3], "\(summary.transfers)")
    let pairs = try store.transferPairs()
    #expect(pairs.count == 1)
    let rows = try store.expenses(month: nil, category: nil, limit: nil)
    let paired = rows.filter { $0.category == transfersName }.map(\.description).sorted()
    #expect(paired == ["ONLINE PAYMENT TO VISA", "Visa ending 8812"], "descriptions are stored whole")
    #expect(rows.filter { $0.category == "Groceries" }.count == 2, "rows with their own category stay")
  }
}

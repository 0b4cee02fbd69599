import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import Testing

/// Every use case of `ExpenseService` in process, errors included: what the CLI's commands and
/// the HTTP handlers call, with no binary, terminal or server in between.
@Suite struct UseCaseTests {
  static let today = CivilDate(year: 2026, month: 10, day: 20)!
  static let clock = ServiceClock(now: { Date(timeIntervalSince1970: 1_792_000_000) }, today: { today })
  static let october = Month(year: 2026, month: 10)!

  /// A service over a new database in a new folder.
  static func service(_ folder: ServiceTests.Folder) throws -> ExpenseService {
    try ExpenseService.open(path: folder.database, access: .write, clock: clock)
  }

  /// A service holding `ServiceTests.bank` (4 rows of October 2026).
  static func imported(_ folder: ServiceTests.Folder) throws -> ExpenseService {
    let service = try service(folder)
    _ = try service.importFile(ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank)))
    return service
  }

  // MARK: Expenses

  @Test func addReadsTypedAmountsAsPeopleSayThem() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    let coffee = try service.addExpense(
      date: Self.today, amount: "4.50", description: "Coffee", category: "Dining", account: nil, currency: nil)
    #expect(coffee.amount == Money(minor: -450, currency: .usd), "a typed amount is money out")
    let refund = try service.addExpense(
      date: Self.today, amount: "+25", description: "Refund", category: nil, account: nil, currency: "eur")
    #expect(refund.amount == Money(minor: 2500, currency: .eur), "'+' is money in, in the currency given")
    #expect(try service.expenses().count == 2)
    #expect(try service.expense(id: try #require(coffee.id)) == coffee)

    #expect(throws: CoreError.self) {
      try service.addExpense(
        date: Self.today, amount: "4.50", description: "x", category: nil, account: nil, currency: "XYZ")
    }
    #expect(throws: CoreError.self) {
      try service.addExpense(
        date: Self.today, amount: "abc", description: "x", category: nil, account: nil, currency: nil)
    }
    #expect(try service.expenses().count == 2, "a refused expense writes nothing")
  }

  @Test func editAndDeleteByID() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    let coffee = try #require(try service.expenses(category: "Dining").first { $0.description == "Coffee" })
    let id = try #require(coffee.id)
    let edited = try service.editExpense(
      id: id, date: nil, amount: "5", description: "Flat white", category: nil, account: nil)
    #expect(edited.amount.minor == -500 && edited.description == "Flat white" && edited.category == "Dining")

    #expect(throws: StoreError.expenseNotFound([999])) {
      try service.editExpense(id: 999, date: nil, amount: "1", description: nil, category: nil, account: nil)
    }
    #expect(throws: StoreError.self) { try service.deleteExpenses(ids: [id, 999]) }
    #expect(try service.expenseCount() == 4)
    #expect(try service.deleteExpenses(ids: [id]).first?.description == "Flat white")
    #expect(try service.expenseCount() == 3)
    let page = try service.expensePage(month: Self.october, category: nil, after: nil, limit: 2)
    #expect(page.expenses.count == 2 && page.nextCursor != nil)
  }

  // MARK: Budgets, categories, rules

  @Test func budgetsKeepOneSpellingPerCategory() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    #expect(try service.categorySuggestion(for: "Dinning") == "Dining")
    // A budget's spelling becomes the category's (documented in `budgetSpelling`); later ones keep it.
    let budget = try service.setBudget(category: "dining", amount: "200", month: nil, currency: nil)
    #expect(budget.category == "dining" && budget.amount == Money(minor: 20_000, currency: .usd))
    #expect(try service.expenses(category: "dining").count == 2, "the rows follow the budget's spelling")
    let override = try service.setBudget(category: "Dining", amount: "300", month: Self.october, currency: "USD")
    #expect(override.month == Self.october && override.category == "dining")
    #expect(try service.budgets().count == 2)
    try service.removeBudget(category: "DINING", month: Self.october, currency: nil as String?)
    #expect(try service.budgets() == [budget])
    #expect(throws: StoreError.self) {
      try service.removeBudget(category: "Travel", month: nil, currency: nil as String?)
    }
    #expect(throws: CoreError.self) { try service.setBudget(category: "X", amount: "1", month: nil, currency: "ZZZ") }
  }

  @Test func categoriesAndKinds() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    try service.setCategoryKind("Housing", kind: .transfer)
    let housing = try #require(try service.categories().first { $0.name == "Housing" })
    #expect(housing.kind == .transfer && housing.expenseCount == 1)
    #expect(throws: StoreError.self) { try service.forgetCategory("Housing") }
    try service.setCategoryKind("Gifts", kind: .expense)
    #expect(try service.forgetCategory("Gifts"))
    #expect(try service.forgetCategory("Gifts") == false)
  }

  @Test func rulesCategorizeTheRowsTheyMay() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    let rule = try service.addRule(pattern: "salary", category: "Income", field: .description)
    #expect(try service.rules() == [rule])
    let preview = try service.applyRules(dryRun: true)
    #expect(preview.changed == 1, "only the uncategorized salary row")
    #expect(try service.expenses(category: "Income").isEmpty, "a dry run writes nothing")
    #expect(try service.applyRules(dryRun: false).changed == 1)
    #expect(try service.expenses(category: "Income").count == 1)
    _ = try service.putRule(id: rule.id, pattern: "rent", category: "Income", field: .description)
    try service.removeRule(id: rule.id)
    #expect(throws: StoreError.ruleNotFound(rule.id)) { try service.removeRule(id: rule.id) }
  }

  // MARK: Imports

  @Test func anImportSavesItsProfileWithItsRows() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    var request = ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank))
    request.options.account = "Checking"
    request.saveProfileAs = "checking"
    let summary = try service.importFile(request)
    #expect(summary.new == 4)
    #expect(try service.profileNames() == ["checking"])
    #expect(try service.importOptions(ImportFlags.profile("checking")).account == "Checking")
    let record = try #require(try service.imports().first)
    #expect(record.importedAt == ImportRecord.timestamp(Self.clock.now()), "the import's time is the clock's")

    var failing = ImportRequest(path: try folder.file("bad.csv", "Date,Description,Amount\n2026-10-01,A,oops\n"))
    failing.saveProfileAs = "never"
    #expect(throws: (any Error).self) { try service.importFile(failing) }
    #expect(try service.profileNames() == ["checking"], "a failed import saves no profile either")

    #expect(try service.removeImport(id: record.id) == 4)
    #expect(try service.expenseCount() == 0)
    #expect(throws: StoreError.importNotFound(record.id)) { try service.removeImport(id: record.id) }
  }

  @Test func aPreviewNamesRulesFromOneRead() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    let rule = try service.addRule(pattern: "salary", category: "Income", field: .description)
    var request = ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank))
    request.saveProfileAs = "ignored"
    let preview = try service.previewImport(request, limit: 2)
    #expect(preview.preview.count == 2)
    #expect(preview.rulePatterns == [rule.id: "salary"])
    #expect(try service.expenseCount() == 0 && service.profileNames().isEmpty, "a preview writes nothing")
  }

  @Test func anUploadWhoseEveryRowIsExcludedIsBadData() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    let path = try folder.file(
      "pending.csv", "Date,Description,Amount,Status\n2026-10-01,A,-1.00,Pending\n2026-10-02,B,-2.00,Pending\n")
    let upload = UploadImport(fileName: "pending.csv", preview: false, skipInvalid: false, flags: ImportFlags())
    let error = try #require(throws: ServiceError.self) { try service.importUpload(path: path, upload) }
    #expect(error.kind == .badData)
    #expect(error.description.hasPrefix("pending.csv: every row was excluded (2)"))
    let result = try service.importUpload(
      path: try folder.file("bank.csv", ServiceTests.bank),
      UploadImport(fileName: "bank.csv", preview: false, skipInvalid: false, flags: ImportFlags()))
    #expect(result.new == 4 && result.importId != nil && result.file == "bank.csv")
  }

  // MARK: Reports and sections

  @Test func reportsRenderWithThePinnedClock() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    let json = try service.reportJSON(month: Self.october, today: Self.today)
    var request = ReportRequest(today: Self.today, month: Self.october, format: .json)
    #expect(json == (try service.renderReport(request)), "the API's report is the CLI's, byte for byte")
    request.format = .text
    request.width = 19
    #expect(throws: ServiceError.widthTooSmall(19)) { try service.renderReport(request) }
    let page = try service.reportPage(month: Self.october, today: Self.today, script: "/app.js")
    #expect(page.contains("/app.js"))
    let full = try service.fullReport(month: Self.october, today: Self.today)
    #expect(full.expenses?.count == 4)
    #expect(service.pinning(today: CivilDate(year: 2026, month: 1, day: 1)).clock.today().month == 1)
  }

  @Test func sectionsChangeThroughOneRule() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    try service.changeSections(expand: ["trends"], collapse: [])
    #expect(try service.savedSections().expanded[.trends] == true)
    #expect(throws: (any Error).self) { try service.changeSections(expand: ["nonsense"], collapse: []) }
    try service.setAccordion(true)
    #expect(try service.savedSections().accordion)
    let openNow = SectionID.allCases.filter {
      $0.collapsibility != .never && (try? service.savedSections())?.isExpanded($0) == true
    }
    #expect(openNow.count <= 1, "accordion mode keeps at most one collapsible section open")

    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try service.updateSections(.section(.trends, expanded: false)) { _ in throw Refused() }
    }
    let after = try service.updateSections(.accordion(false)) { _ in }
    #expect(after.accordion == false)
    try service.resetSections()
    #expect(try service.sectionEntries().allSatisfy { !$0.saved })
  }

  // MARK: Settings, tokens, maintenance, export, demo

  @Test func settingsAndCurrency() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    #expect(try service.setDefaultCurrency("eur") == .eur)
    let settings = try service.settings()
    #expect(settings.currency == .eur && settings.database == folder.database && !settings.accordion)
    #expect(throws: CoreError.self) { try service.setDefaultCurrency("EURO") }
  }

  @Test func tokensAreListedWithTheirStateAtTheClocksNow() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    let made = try service.createToken(name: "phone", scope: .read, expiresInDays: 1, hash: "h1")
    #expect(made.createdAt == ImportRecord.timestamp(Self.clock.now()))
    try service.createToken(name: "old", scope: .write, expiresInDays: nil, hash: "h2")
    #expect(throws: StoreError.tokenExists("old")) {
      try service.createToken(name: "old", scope: .write, expiresInDays: nil, hash: "h3")
    }
    try service.revokeToken(name: "old")
    let later = ExpenseService(
      store: service.store,
      clock: ServiceClock(now: { Self.clock.now().addingTimeInterval(2 * 86_400) }, today: { Self.today }))
    let states = Dictionary(uniqueKeysWithValues: try later.tokens().map { ($0.token.name, $0.state) })
    #expect(states["phone"] == "expired")
    #expect(states["old"]?.hasPrefix("revoked ") == true)
    #expect(try service.tokens().first { $0.token.name == "phone" }?.state == "active")
    #expect(throws: StoreError.tokenNotFound("nobody")) { try service.revokeToken(name: "nobody") }

    let answer = IdempotentResponse(requestHash: "r", status: 201, body: Data("{}".utf8))
    try service.saveIdempotentResponse(answer, token: "phone", key: "k")
    #expect(try service.idempotentResponse(token: "phone", key: "k") == answer)
  }

  @Test func checkBackupAndTheirRefusals() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    let outcome = try service.check(repair: true)
    #expect(outcome.report.isHealthy && outcome.rebuilt.isEmpty && !outcome.notRepairable)

    let copy = folder.url.appendingPathComponent("backup.sqlite").path
    #expect(try service.backup(to: copy, force: false) == 4)
    #expect(throws: ServiceError.outputExists(path: copy)) { try service.backup(to: copy, force: false) }
    #expect(try service.backup(to: copy, force: true) == 4)
    #expect(throws: ServiceError.self) { try service.backup(to: folder.database, force: true) }
    #expect(try ExpenseService.open(path: copy, access: .read).expenseCount() == 4)
  }

  @Test func exportsAJournal() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.imported(folder)
    let ledger = try service.exportJournal(.ledger, from: nil, through: nil)
    #expect(ledger.contains("Coffee") && ledger.contains("Rent"))
    let beancount = try service.exportJournal(.beancount, from: CivilDate(year: 2026, month: 10, day: 4), through: nil)
    #expect(!beancount.contains("Coffee") && beancount.contains("Lunch"))
  }

  @Test func theDemoLoadsItsSampleData() throws {
    let folder = try ServiceTests.Folder()
    let service = try Self.service(folder)
    let lastDay = try #require(try service.loadDemo(scratchFolder: folder.url.path))
    #expect(try service.expenseCount() > 100)
    #expect(try service.budgets().count > 3)
    #expect(try service.categories().contains { $0.name == "Salary" && $0.kind == .income })
    #expect(try service.expenses().contains { $0.date == lastDay })
  }
}

extension ImportFlags {
  /// Flags that only name a profile.
  static func profile(_ name: String) -> ImportFlags {
    var flags = ImportFlags()
    flags.profile = name
    return flags
  }
}

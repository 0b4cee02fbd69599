import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// The service layer in process, as the CLI and the HTTP API call it: no binary, no terminal.
@Suite struct ServiceTests {
  static let bank = """
    Date,Description,Amount,Category
    2026-10-01,Rent,-1200.00,Housing
    2026-10-03,Coffee,-4.50,Dining
    2026-10-04,Salary,2500.00,
    2026-10-05,Lunch,-12.00,Dining
    """

  /// A folder for one test's files, removed when the test is done.
  final class Folder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-service-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String, _ text: String) throws -> String {
      let path = url.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: false, encoding: .utf8)
      return path
    }
    var database: String { url.appendingPathComponent("db.sqlite").path }
  }

  static let today = CivilDate(year: 2026, month: 10, day: 20)!

  @Test func importThenReportInProcess() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    let summary = try ImportService(store: db).run(ImportRequest(path: try folder.file("bank.csv", Self.bank)))
    #expect(summary.new == 4)
    #expect(summary.duplicates == 0)
    #expect(summary.importId != nil)
    #expect(summary.currency == "USD")

    let again = try ImportService(store: db).run(ImportRequest(path: try folder.file("bank.csv", Self.bank)))
    #expect(again.new == 0 && again.duplicates == 4, "a second import of the same file adds nothing")

    let json = try ReportService(store: db).render(ReportRequest(today: Self.today, format: .json))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["month"] as? String == "2026-10")
    let expenses = try #require(object["expenses"] as? [[String: Any]], "JSON carries the rows whatever the states")
    #expect(expenses.count == 4)
    let rent = try #require(expenses.first { $0["description"] as? String == "Rent" })
    let source = try #require(rent["source"] as? [String: Any])
    #expect(source["file"] as? String == "bank.csv")
    #expect(source["line"] as? Int == 2)
    #expect(rent["sourceLine"] as? Int == 2, "the older flat fields stay")
  }

  @Test func dryRunWritesNothingAndListsRows() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    var request = ImportRequest(path: try folder.file("bank.csv", Self.bank))
    request.dryRun = true
    let summary = try ImportService(store: db).run(request)
    #expect(summary.new == 4)
    #expect(summary.preview.map(\.line) == [2, 3, 4, 5])
    #expect(summary.importId == nil)
    #expect(try db.expenses().isEmpty)
  }

  @Test func aPreviewNamesTheRuleOfEveryRowPastABatch() throws {
    // Rows a day apart: a batch closes at a new day once it holds 1,024 rows, so the rows
    // that open the second and third batches are previewed with the rule that categorized them.
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    let rule = try db.addRule(pattern: "coffee", category: "Dining", field: .description)
    var csv = "Date,Description,Amount\n"
    let start = CivilDate(year: 2020, month: 1, day: 1)
    for n in 0..<2_500 {
      let day = try #require(start).adding(days: n)
      csv += "\(day),Coffee \(n),-1.00\n"
    }
    var request = ImportRequest(path: try folder.file("coffee.csv", csv))
    request.dryRun = true
    request.previewLimit = 3_000
    let summary = try ImportService(store: db).run(request)
    #expect(summary.preview.count == 2_500)
    #expect(summary.preview.filter { $0.ruleID != rule.id }.map(\.line) == [])
  }

  @Test func everyRowExcludedIsBadData() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    let path = try folder.file("pending.csv", "Date,Description,Amount,Status\n2026-10-01,A,-1.00,Pending\n")
    #expect {
      _ = try ImportService(store: db).run(ImportRequest(path: path))
    } throws: { error in
      guard let error = error as? ServiceError, case .everyRowExcluded(_, let count, _) = error else { return false }
      return count == 1 && error.kind == .badData
    }
  }

  @Test func rejectsNeverOverwriteTheDatabase() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    var request = ImportRequest(path: try folder.file("bank.csv", Self.bank))
    request.skipInvalid = true
    request.rejectsPath = folder.database
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.database))
    #expect {
      _ = try ImportService(store: db).run(request)
    } throws: { error in
      guard let error = error as? ServiceError, case .protectedOutput = error else { return false }
      return error.kind == .cannotCreate
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.database)) == before)
  }

  @Test func savedSectionsDriveTheTerminalReportAndAreShared() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    _ = try ImportService(store: db).run(ImportRequest(path: try folder.file("bank.csv", Self.bank)))
    let sections = SectionService(store: db)
    var text = ReportRequest(today: Self.today, format: .text)
    text.width = 80
    let folded = try ReportService(store: db).render(text)
    #expect(!folded.contains("Coffee"), "expenses are collapsed by default")

    try sections.change(expand: ["expenses"], collapse: [])
    let open = try ReportService(store: db).render(text)
    #expect(open.contains("Coffee"), "a saved expansion shows in the next report")
    #expect(try sections.entries().first { $0.id == "expenses" }?.saved == true)

    try sections.setAccordion(true)
    try sections.change(expand: ["trends"], collapse: [])
    let states = try sections.resolve()
    #expect(states.isExpanded(.trends) && !states.isExpanded(.expenses), "accordion keeps one section open")

    #expect(throws: RenderError.notCollapsible(.summary)) { try sections.change(expand: [], collapse: ["summary"]) }
    #expect(throws: ServiceError.widthTooSmall(19)) {
      var narrow = text
      narrow.width = 19
      _ = try ReportService(store: db).render(narrow)
    }
  }

  @Test func reportSaveStoresTheFlags() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    var request = ReportRequest(today: Self.today, format: .text)
    request.expand = ["trends"]
    request.save = true
    _ = try ReportService(store: db).render(request)
    #expect(try SectionService(store: db).saved()[.trends] == true)
  }

  @Test func rowDetailsSayHowTheCategoryWasSet() throws {
    let folder = try Folder()
    let db = try AppDatabase(path: folder.database)
    let rule = try db.addRule(pattern: "lunch", category: "Dining", field: .description)
    let bank = "Date,Description,Amount,Category\n2026-10-01,Rent,-1200.00,Housing\n2026-10-05,Lunch,-12.00,\n"
    _ = try ImportService(store: db).run(ImportRequest(path: try folder.file("bank.csv", bank)))
    try db.addExpense(Expense(date: Self.today, amount: Money(minor: -300, currency: .usd), description: "Tea"))
    var details = ReportRequest(today: Self.today, format: .text)
    details.details = true  // row details are what shows how a category was set
    details.expand = ["expenses"]
    let (report, _) = try ReportService(store: db).report(for: details)
    let byText = Dictionary(uniqueKeysWithValues: (report.expenses ?? []).map { ($0.description, $0) })
    #expect(byText["Rent"]?.categorizedBy == "the file's category column")
    #expect(byText["Lunch"]?.categorizedBy == "rule \(rule.id): description contains 'lunch'")
    #expect(byText["Tea"]?.categorizedBy == nil, "no category, nothing to explain")

    try db.removeRule(id: rule.id)
    let (after, _) = try ReportService(store: db).report(for: details)
    #expect(after.expenses?.first { $0.description == "Lunch" }?.categorizedBy == "a rule that has since changed")
  }
}

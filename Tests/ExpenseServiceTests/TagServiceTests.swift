import ExpenseCore
import ExpenseRender
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@testable import ExpenseService

/// Tags through the service, on every store: rows tagged by hand and by a rule's matches, taken
/// out, totalled per currency, budgeted over days, listed by `list --tag`, shown in JSON and
/// the report's `tags` section, and every change undone by the history.
@Suite struct TagServiceTests {
  static func day(_ raw: String) -> CivilDate { GoalServiceTests.day(raw) }

  /// Six rows in August: a trip to Lisbon (a hotel, two cafes, a refund), groceries at home.
  static func ledger(_ kind: StoreUnderTest, in folder: ServiceTests.Folder) throws -> (any LedgerStore, ExpenseService)
  {
    let store = try kind.make(in: folder)
    let service = GoalServiceTests.service(store, today: "2026-08-20")
    let csv = try folder.file(
      "aug.csv",
      """
      Date,Description,Amount,Currency
      2026-08-03,HOTEL AVENIDA LISBOA,-600.00,EUR
      2026-08-04,CAFE A BRASILEIRA LISBOA,-12.50,EUR
      2026-08-05,PASTEIS DE BELEM LISBOA,-8.00,EUR
      2026-08-06,HOTEL AVENIDA LISBOA refund,100.00,EUR
      2026-08-10,GROCER,-55.00,USD
      2026-07-28,FLIGHT TAP LISBON,-420.00,USD

      """)
    _ = try service.importFile(ImportRequest(path: csv))
    return (store, service)
  }

  static func ids(_ service: ExpenseService, _ text: String) throws -> [Int64] {
    try service.expenses(month: nil, category: nil, limit: nil).filter { $0.description.contains(text) }
      .compactMap(\.id).sorted()
  }

  @Test(arguments: StoreUnderTest.allCases)
  func tagsTotalBudgetAndUndo(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let (store, service) = try Self.ledger(kind, in: folder)
    let flight = try Self.ids(service, "FLIGHT")
    let grocer = try Self.ids(service, "GROCER")
    // A rule's matches, past and future: every LISBOA row, the refund included.
    _ = try service.addRule(pattern: "lisboa", category: "Travel", field: .description, tag: "Trip-Lisbon")
    var tag = try service.addTag("trip-lisbon", to: flight)
    #expect(tag.name == "trip-lisbon" && tag.count == 5)
    // Per currency, never added together: 600 + 12.50 + 8 − 100 in EUR, 420 in USD.
    #expect(tag.totals.map(\.spentMinor) == [52_050, 42_000] && tag.totals.map(\.currency.code) == ["EUR", "USD"])
    // The cafe is taken out of the rule's matches.
    let cafe = try Self.ids(service, "BRASILEIRA")
    tag = try service.removeTag("trip-lisbon", from: cafe)
    #expect(tag.count == 4 && tag.totals.first?.spentMinor == 50_800)
    tag = try service.setTagBudget(
      "trip-lisbon", amountMinor: 80_000, currency: .eur, from: Self.day("2026-08-01"), to: Self.day("2026-08-31"))
    // 600 + 8 − 100 = 508 of 800 in August: 64 % (63.5 rounded half up).
    #expect(tag.budgetSpentMinor == 50_800 && tag.percentUsed == 64)

    // `list --tag`, and the rows' JSON carries their tags.
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    var out = OutputBuffer { sink.bytes.append(contentsOf: $0) }
    try service.writeExpenses(
      month: nil, category: nil, format: .json, into: &out,
      search: ExpenseSearch(filter: ExpenseFilter(text: nil), tag: "TRIP-LISBON"))
    try out.flush()
    let listed = String(decoding: sink.bytes, as: UTF8.self)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
    #expect(rows.count == 4 && rows.allSatisfy { ($0["tags"] as? [String]) == ["trip-lisbon"] }, "\(listed)")
    #expect(try service.expense(id: grocer[0]).tags.isEmpty)
    #expect(throws: ServiceError.tagNotFound("nosuch")) {
      try service.writeExpenses(
        month: nil, category: nil, format: .json, into: &out,
        search: ExpenseSearch(filter: ExpenseFilter(text: nil), tag: "nosuch"))
    }

    // The report's section: the budget's days reach into August.
    let report = try ReportLoader(store: store).report(month: try Month.parse("2026-08"), today: Self.day("2026-08-20"))
    #expect(report.tags.map(\.tag) == ["trip-lisbon"])
    #expect(report.tags.first?.percentUsed == 64 && report.tags.first?.monthSpentMinor == 50_800)

    // Every change is undone, newest first: budget, removal, hand tag, rule.
    for _ in 0..<4 { _ = try service.undo() }
    #expect(try service.tags().isEmpty || (try service.tags().first?.count == 0))
    #expect(try service.rules().isEmpty)

    // Refused, with nothing changed: an unknown row, a bad name, a bad budget.
    #expect(throws: StoreError.expenseNotFound([999])) { try service.addTag("x", to: [999]) }
    #expect(throws: ServiceError.tagName("Trip Lisbon")) { try service.addTag("Trip Lisbon", to: grocer) }
    #expect(throws: ServiceError.self) {
      try service.setTagBudget(
        "x", amountMinor: 100, currency: nil, from: Self.day("2026-08-31"), to: Self.day("2026-08-01"))
    }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aDeletedRowLeavesItsTagsAndAnUndoneDeleteBringsThemBack(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let (_, service) = try Self.ledger(kind, in: folder)
    let flight = try Self.ids(service, "FLIGHT")
    _ = try service.addTag("trip", to: flight)
    _ = try service.deleteExpenses(ids: flight)
    #expect(try service.tag("trip").count == 0)
    _ = try service.undo()
    #expect(try service.tag("trip").count == 1)
    #expect(try service.deleteTag("trip").name == "trip")
    #expect(throws: ServiceError.tagNotFound("trip")) { try service.tag("trip") }
  }

  /// The rows `browse`'s all-months search shows are `list --search`'s, newest first, bounded.
  @Test(arguments: StoreUnderTest.allCases)
  func theBrowseSearchFindsWhatListFinds(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let (_, service) = try Self.ledger(kind, in: folder)
    let search = ExpenseSearch(filter: ExpenseFilter(text: "lisb"))
    let found = try service.searchRows(search, limit: 2)
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    var out = OutputBuffer { sink.bytes.append(contentsOf: $0) }
    try service.writeExpenses(month: nil, category: nil, format: .json, into: &out, search: search)
    try out.flush()
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? [[String: Any]])
    #expect(found.total == listed.count && found.total == 5)
    #expect(found.rows.compactMap(\.id) == listed.prefix(2).compactMap { ($0["id"] as? Int).map(Int64.init) })
  }
}

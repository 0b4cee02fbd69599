import ExpenseCore
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@testable import ExpenseService

/// Recurring payments through the service, on every store, on `Fixtures/recurring/ledger.csv`
/// (18 months; its generator names the true series): exactly the true series are found, no
/// irregular payee is one, the month's report expects what is still due once (the projection
/// equals the hand computation), confirm and ignore are changes the history undoes, and ids
/// stay with their series.
@Suite struct RecurringServiceTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/recurring/ledger.csv")

  static func service(_ store: any LedgerStore, today: String = "2026-11-20") -> ExpenseService {
    GoalServiceTests.service(store, today: today)
  }

  /// The fixture imported, the salary's category an income one; the folder holds the file store.
  static func ledger(_ kind: StoreUnderTest, in folder: ServiceTests.Folder) throws -> any LedgerStore {
    let store = try kind.make(in: folder)
    let service = service(store)
    _ = try service.importFile(ImportRequest(path: file.path))
    try service.setCategoryKind("Salary", kind: .income)
    return store
  }

  @Test(arguments: StoreUnderTest.allCases)
  func exactlyTheTrueSeriesAreFound(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let service = Self.service(try Self.ledger(kind, in: folder))
    let items = try service.recurring()
    let found = items.map { "\($0.name) \($0.interval.rawValue) \($0.amountMinor) \($0.next) \($0.status.rawValue)" }
    #expect(
      found == [
        "RENT OAK STREET APTS REF monthly 150000 2026-11-01 late",
        "PURE GYM WEEKLY weekly 1200 2026-11-23 expected",
        "SPOTIFY monthly 1099 2026-11-25 expected",
        "NETFLIX.COM monthly 1799 2026-12-15 expected",
        "CITY WATER QUARTERLY BILL quarterly 8361 2027-02-05 expected",
      ],
      "\(found)")
    // The price change is one series; the early rent its due date's; the skipped month allowed.
    let netflix = try #require(items.first { $0.name == "NETFLIX.COM" })
    #expect(netflix.lowMinor == 1549 && netflix.highMinor == 1799 && netflix.occurrences == 18)
    let rent = try #require(items.first { $0.payee == "rent oak street apts ref" })
    let october = try CivilDate.parse("2026-10-01")
    #expect(rent.occurrences == 17 && rent.last == october)
    #expect(items.first { $0.name == "SPOTIFY" }?.occurrences == 16, "June 2025 to October 2026 but April")
    // Ids are given once, in the order first listed, and stay.
    #expect(Set(items.map(\.id)) == Set(1...5))
    #expect(try service.recurring().map(\.id) == items.map(\.id))
  }

  @Test(arguments: StoreUnderTest.allCases)
  func theProjectionExpectsWhatIsStillDueOnce(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try Self.ledger(kind, in: folder)
    let service = Self.service(store)
    let month = try Month.parse("2026-11")
    let report = try ReportLoader(store: store).report(month: month, today: try CivilDate.parse("2026-11-20"))
    let rows = Dictionary(uniqueKeysWithValues: (report.groups.first?.categories ?? []).map { ($0.category, $0) })
    // By hand: rent not yet paid is expected once ($1,500); the gym paid 3 Mondays and owes the
    // 23rd's and the 30th's ($36 + $24); Netflix paid $17.99 and Spotify owes $10.99; the
    // water bill paid on the 5th and nothing more of it this quarter.
    #expect(rows["Rent"]?.spentMinor == 0 && rows["Rent"]?.projectedMinor == 150_000)
    #expect(rows["Fitness"]?.spentMinor == 3_600 && rows["Fitness"]?.projectedMinor == 6_000)
    #expect(rows["Subscriptions"]?.spentMinor == 1_799 && rows["Subscriptions"]?.projectedMinor == 2_898)
    #expect(rows["Utilities"]?.spentMinor == 8_361 && rows["Utilities"]?.projectedMinor == 8_361)
    // The section: five series, three still due (the gym twice, Spotify), one late (rent).
    #expect(report.recurring.count == 5)
    #expect(report.recurring.stillDueCount == 3 && report.recurring.lateCount == 1)
    // Ignored: the rent leaves the section and the projection; undone, it is back.
    let rentID = try #require(try service.recurring().first { $0.payee.hasPrefix("rent") }?.id)
    #expect(try service.ignoreRecurring(id: rentID).decision == "ignored")
    let ignored = try ReportLoader(store: store).report(month: month, today: try CivilDate.parse("2026-11-20"))
    #expect(ignored.recurring.count == 4 && ignored.recurring.lateCount == 0)
    #expect(ignored.groups.first?.categories.contains { $0.category == "Rent" } == false)
    #expect(try service.recurring().contains { $0.id == rentID } == false)
    #expect(try service.recurring(includeIgnored: true).last?.id == rentID)
    _ = try service.undo()
    #expect(try service.recurring().first?.id == rentID)
    #expect(try service.confirmRecurring(id: rentID).decision == "confirmed")
    #expect(try service.history(limit: 1).first?.summary == "recurring confirm #\(rentID) RENT OAK STREET APTS REF")
    #expect(throws: ServiceError.recurringNotFound(99)) { try service.confirmRecurring(id: 99) }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aSeriesWhoseRowsAreGoneIsNotFoundAndItsIdIsNeverGivenAgain(_ kind: StoreUnderTest) throws {
    let folder = try ServiceTests.Folder()
    let store = try kind.make(in: folder)
    let service = Self.service(store, today: "2026-10-20")
    let csv = try folder.file(
      "stream.csv",
      "Date,Description,Amount\n2026-07-03,STREAMY 0001,-9.99\n2026-08-03,STREAMY 0002,-9.99\n"
        + "2026-09-03,STREAMY 0003,-9.99\n2026-10-03,STREAMY 0004,-9.99\n")
    _ = try service.importFile(ImportRequest(path: csv))
    let first = try #require(try service.recurring().first)
    let due = try CivilDate.parse("2026-11-03")
    #expect(first.id == 1 && first.name == "STREAMY" && first.next == due)
    _ = try service.removeImport(id: 1)
    #expect(try service.recurring().isEmpty)
    #expect(throws: ServiceError.recurringNotFound(1)) { try service.ignoreRecurring(id: 1) }
    let other = try folder.file(
      "gym.csv",
      "Date,Description,Amount\n2026-09-07,GYM,-12.00\n2026-09-14,GYM,-12.00\n2026-09-21,GYM,-12.00\n")
    _ = try service.importFile(ImportRequest(path: other))
    #expect(try service.recurring().map(\.id) == [2], "a new series takes the next id, never 1")
  }
}

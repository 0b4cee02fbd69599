import ExpenseCore
import ExpenseImport
import ExpenseStore
import Foundation
import ServiceTestSupport
import Testing

@testable import ExpenseService

/// Statement balances through the service, on every store: stored in the import's transaction
/// (none in a dry run, none twice), removed with their import, following a renamed account,
/// checked against the rows, and a typed balance reconciled.
@Suite struct AccountBalanceServiceTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/balances")

  static func run(_ store: any LedgerStore, _ name: String, dryRun: Bool = false) throws -> ImportSummary {
    var request = ImportRequest(path: folder.appendingPathComponent(name).path)
    request.dryRun = dryRun
    request.importedAt = Date(timeIntervalSince1970: 1_790_000_000 + Double(name.count))
    return try ImportService(store: store).run(request)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func balancesAreKeptWithTheirRowsAndChecked(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = RolloverServiceTests.service(store, today: "2026-11-20")
    #expect(try Self.run(store, "checking-sep.ofx", dryRun: true).balances == 1)
    #expect(try service.accountStandings().isEmpty, "a dry run stores neither rows nor balances")
    #expect(try Self.run(store, "checking-sep.ofx").balances == 1)
    #expect(try Self.run(store, "checking-oct.ofx").balances == 1)
    _ = try Self.run(store, "checking-oct.ofx")
    var checking = try #require(try service.accountStandings().first?.balances.first)
    #expect(checking.statedCount == 2 && checking.matches && checking.balanceMinor == 181_750)

    // A row deleted by mistake: off by its amount from October's statement on.
    let groceries = try #require(
      try store.expenses(month: Month(year: 2026, month: 10), category: nil, limit: nil).first {
        $0.description == "GREENLEAF GROCERS"
      }?.id)
    _ = try store.deleteExpenses(ids: [groceries])
    checking = try #require(try service.accountStandings().first?.balances.first)
    #expect(checking.offByMinor == -9_210 && checking.offSince == CivilDate(year: 2026, month: 10, day: 31))
    #expect(checking.firstRowAfterMatch?.description == "ACME PAYROLL")

    // Renamed, the balances follow; the October import removed, its balance goes with it.
    _ = try service.renameAccount("Checking", to: "Joint")
    checking = try #require(try service.accountStandings().first { $0.name == "Joint" }?.balances.first)
    #expect(checking.statedCount == 2)
    let october = try #require(try store.imports().first { $0.file.hasSuffix("checking-oct.ofx") }?.id)
    _ = try service.removeImport(id: october)
    checking = try #require(try service.accountStandings().first { $0.name == "Joint" }?.balances.first)
    #expect(checking.statedCount == 1 && checking.matches)

    // A typed balance: 20 September, 1,154.60 + 60.00 (the utilities not paid yet).
    let typed = try service.reconcile(
      account: "joint", amount: "1214.60", asOf: CivilDate(year: 2026, month: 9, day: 19)!, currency: nil)
    #expect(typed.saved && typed.anchored && typed.offByMinor == 0)
    let wrong = try service.reconcile(
      account: "Joint", amount: "1000", asOf: CivilDate(year: 2026, month: 9, day: 30)!, currency: nil)
    #expect(!wrong.saved && wrong.offByMinor == -15_460)
    #expect(try service.accountStandings().first { $0.name == "Joint" }?.balances.first?.statedCount == 2)
    #expect(throws: StoreError.accountNotFound("Savings")) {
      try service.reconcile(
        account: "Savings", amount: "1", asOf: CivilDate(year: 2026, month: 9, day: 30)!, currency: nil)
    }
  }
}

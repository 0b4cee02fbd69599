import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import Testing

@testable import ExpenseServer

/// One JSON object per resource: what `list`, `budget list` and `imports list --format json`
/// print (the resource encoders they call) is what the API answers for the same rows, except
/// that the API leaves out what the CLI prints as null.
@Suite struct ResourceShapeTests {
  /// `json` decoded, with null members removed (absent and null mean the same).
  static func object(_ json: Data) throws -> [String: NSObject] {
    let value = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    return value.compactMapValues { $0 is NSNull ? nil : $0 as? NSObject }
  }

  static func encoded(_ value: some Encodable) throws -> Data { try JSONEncoder().encode(value) }

  /// The objects of a list answer (`{"budgets": [...]}`), each without its nulls.
  static func listed(_ json: Data, key: String) throws -> [[String: NSObject]] {
    let list = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    return try #require(list[key] as? [[String: Any]]).map {
      try object(try JSONSerialization.data(withJSONObject: $0))
    }
  }

  @Test func anExpenseIsOneObjectInTheCLIAndTheAPI() async throws {
    let harness = try ServerHarness()
    let bank = "Date,Description,Amount,Category\n2026-10-01,Rent,-1200.00,Housing\n2026-10-03,Coffee,-4.50,\n"
    try await harness.run { client in
      let imported = try await client.call(.post, "/v1/imports?file=bank.csv", csv: bank)
      #expect(imported.status == 201)
    }
    let service = ExpenseService(store: harness.database)
    let byHand = try service.addExpense(
      date: ServerHarness.today, amount: "3", description: "Tea", category: nil, account: "Cash", currency: nil)
    let expenses = try service.expenses()
    #expect(expenses.count == 3 && expenses.contains(byHand))
    try await harness.run { client in
      for expense in expenses {
        let id = try #require(expense.id)
        let reply = try await client.call(.get, "/v1/expenses/\(id)")
        #expect(reply.status == 200)
        let api = try Self.object(reply.body)
        let cli = try Self.object(try Self.encoded(ExpenseResource(expense)))
        #expect(api == cli, "expense \(id): the API's object is the CLI's")
      }
    }
  }

  @Test func aBudgetAndAnImportRecordAreOneObjectEach() async throws {
    let harness = try ServerHarness()
    let service = ExpenseService(store: harness.database)
    _ = try service.setBudget(category: "Food", amount: "400", month: nil, currency: nil)
    _ = try service.setBudget(category: "Food", amount: "500", month: Month(year: 2026, month: 10), currency: nil)
    try await harness.run { client in
      let imported = try await client.call(
        .post, "/v1/imports?file=bank.csv",
        csv: "Date,Description,Amount\n2026-10-01,Rent,-1200.00\n2026-10-02,Salary,2500.00\n2026-10-03,Coffee,-4.50\n")
      #expect(imported.status == 201)
      let apiBudgets = try Self.listed(try await client.call(.get, "/v1/budgets").body, key: "budgets")
      let cliBudgets = try service.budgets().map { try Self.object(try Self.encoded(BudgetResource($0))) }
      #expect(apiBudgets.count == 2)
      #expect(Set(apiBudgets) == Set(cliBudgets))

      let apiImports = try Self.listed(try await client.call(.get, "/v1/imports").body, key: "imports")
      let cliImports = try service.imports().map { try Self.object(try Self.encoded(ImportRecordResource($0))) }
      #expect(apiImports.count == 1 && apiImports == cliImports)
    }
  }
}

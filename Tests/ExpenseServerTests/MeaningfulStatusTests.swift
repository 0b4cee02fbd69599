import ExpenseService
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import ExpenseSQLite
@testable import ExpenseServer
@testable import ExpenseStore

/// Failures that have a meaning answer their documented status (never a 500), and a write that
/// fails leaves the database as it was.
@Suite struct MeaningfulStatusTests {
  /// Imports `csv` and returns the id of its newest expense.
  static func firstID(_ client: ServerHarness.Client, csv: String) async throws -> Int64 {
    #expect(try await client.call(.post, "/v1/imports", csv: csv).status == 201)
    let page = try await client.call(.get, "/v1/expenses")
    return try #require(page.json["items"]?.array?.first?["id"]?.integer)
  }

  @Test func aPatchPastTheMonthlyCapIs422AndChangesNothing() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let id = try await Self.firstID(client, csv: ServerHarness.csv(rows: 2))
      let before = try await client.call(.get, "/v1/expenses/\(id)")
      let reply = try await client.call(
        .patch, "/v1/expenses/\(id)", json: #"{"amountMinor":-9000000000000000000}"#)
      #expect(reply.status == 422, "\(reply.text)")
      #expect(reply.json["detail"]?.string?.contains("past") == true, "\(reply.text)")
      #expect(try await client.call(.get, "/v1/expenses/\(id)").body == before.body)
      #expect(try await client.call(.get, "/v1/reports/2026-10").status == 200)
    }
  }

  @Test func datesAndMonthsOutsideTheSupportedRangeAre400AndWriteNothing() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let id = try await Self.firstID(client, csv: ServerHarness.csv(rows: 2))
      let before = try await client.call(.get, "/v1/expenses/\(id)")
      for date in ["0001-01-01", "1899-12-31", "3000-01-01"] {
        let reply = try await client.call(.patch, "/v1/expenses/\(id)", json: #"{"date":"\#(date)"}"#)
        #expect(reply.status == 400, "\(date): \(reply.text)")
        #expect(reply.json["field"]?.string == "date")
      }
      #expect(try await client.call(.get, "/v1/expenses/\(id)").body == before.body)
      for month in ["0999-05", "0000-00", "3000-01"] {
        let put = try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":100,"month":"\#(month)"}"#)
        #expect(put.status == 400, "\(month): \(put.text)")
        #expect(try await client.call(.get, "/v1/reports/\(month)").status == 400)
      }
      #expect(try await client.call(.get, "/v1/budgets").json["budgets"]?.array?.isEmpty == true)
      #expect(try await client.call(.get, "/v1/reports/2026-10?today=0001-01-01").status == 400)
      #expect(try await client.call(.get, "/v1/reports/2026-10").status == 200)
    }
  }

  @Test func anImportThatWouldOverflowAMonthlyTotalIs422AndImportsNothing() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let csv = """
        Date,Description,Amount,Category
        2026-10-01,Huge,-30000000000000000.00,Groceries
        2026-10-02,Huger,-30000000000000000.00,Groceries

        """
      let reply = try await client.call(.post, "/v1/imports?file=big.csv", csv: csv)
      #expect(reply.status == 422, "\(reply.text)")
      #expect(reply.json["detail"]?.string?.hasPrefix("big.csv") == true, "\(reply.text)")
      #expect(try await client.call(.get, "/v1/expenses").json["items"]?.array?.isEmpty == true)
    }
  }

  @Test func anUploadWhoseEveryRowIsExcludedIs422() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let csv = "Date,Description,Amount,Status\n2026-10-01,Shop,-1.00,pending\n2026-10-02,Shop,-2.00,pending\n"
      let reply = try await client.call(.post, "/v1/imports?skipWhen=Status=pending", csv: csv)
      #expect(reply.status == 422, "\(reply.text)")
      #expect(reply.json["detail"]?.string?.contains("every row was excluded") == true, "\(reply.text)")
      #expect(try await client.call(.get, "/v1/imports").json["imports"]?.array?.isEmpty == true)
    }
  }

  @Test func everyServiceErrorKindHasItsStatus() {
    let cases: [(ServiceError, Int)] = [
      (.everyRowExcluded(file: "f", count: 1, reasons: []), 422),
      (.totalTooLarge(location: "f:2", detail: "d"), 422), (.widthTooSmall(3), 400),
      (.outputExists(path: "p"), 409), (.cannotWrite(path: "p", reason: "r"), 503),
    ]
    for (error, status) in cases {
      #expect(Int(ProblemMiddleware<BasicRequestContext>.problem(for: error).status.code) == status, "\(error)")
    }
    let overflow = TotalOverflow(line: 2, month: "2026-10", currency: "USD", category: nil, amount: nil)
    #expect(ProblemMiddleware<BasicRequestContext>.problem(for: overflow).status == .unprocessableContent)
  }

  @Test func undeclaredMethodsOnKnownPathsAre405WithAllow() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      for (method, uri, allow) in [
        (HTTPRequest.Method.delete, "/v1/budgets", "GET"), (.post, "/health", "GET"),
        (.put, "/v1/expenses/3", "GET, PATCH, DELETE"), (.post, "/v1/changes", "GET"),
      ] {
        let reply = try await client.client.execute(
          uri: uri, method: method, headers: [.authorization: "Bearer \(harness.writeToken)"])
        #expect(reply.status == .methodNotAllowed, "\(method) \(uri)")
        #expect(reply.headers[.allow] == allow, "\(method) \(uri)")
        #expect(reply.headers[.contentType] == "application/problem+json")
      }
      let unknown = try await client.client.execute(
        uri: "/v1/nothing", method: .delete, headers: [.authorization: "Bearer \(harness.writeToken)"])
      #expect(unknown.status == .notFound)
    }
  }

  @Test func theMethodTableMatchesTheDocument() throws {
    let paths = try OpenAPIContract.document.get()["paths"]?.object ?? [:]
    for (path, item) in paths {
      let documented = Set((item.object ?? [:]).keys.map { $0.uppercased() })
      let served = Set((MethodNotAllowedMiddleware<BasicRequestContext>.methods(for: path) ?? []).map(\.rawValue))
      #expect(documented == served, "\(path)")
    }
  }

  @Test func idempotencyKeysLongerThanDocumentedAre400() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let long = String(repeating: "k", count: 201)
      let reply = try await client.call(
        .post, "/v1/imports", headers: [.init("Idempotency-Key")!: long], csv: ServerHarness.csv(rows: 1))
      #expect(reply.status == 400)
      #expect(reply.json["field"]?.string == "Idempotency-Key")
    }
  }
}

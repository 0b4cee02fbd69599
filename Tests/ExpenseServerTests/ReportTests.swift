import ExpenseCore
import ExpenseSQLite
import ExpenseService
import Foundation
import Testing

@testable import ExpenseServer

@Suite struct ReportTests {
  @Test func theReportIsTheCLIsJSONWithAStrongETag() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      #expect(try await client.call(.post, "/v1/imports?file=bank.csv", csv: ServerHarness.csv(rows: 30)).status == 201)
      try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":50000}"#)
      let reply = try await client.call(.get, "/v1/reports/2026-10?today=2026-10-20", auth: .read)
      #expect(reply.status == 200)
      #expect(reply.headers[.contentType] == "application/json")
      // The oracle: the service call `expenses report --format json` makes, on the same file.
      let cli = try ReportService(store: try AppDatabaseOpener.open(harness.path)).render(
        ReportRequest(today: ServerHarness.today, month: try Month.parse("2026-10"), format: .json))
      #expect(reply.text == cli)
      let etag = try #require(reply.headers[.eTag])
      #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))

      let again = try await client.call(
        .get, "/v1/reports/2026-10?today=2026-10-20", auth: .read, headers: [.ifNoneMatch: etag])
      #expect(again.status == 304)
      #expect(again.body.isEmpty)
      #expect(again.headers[.eTag] == etag)

      // A write changes the bytes and the tag.
      try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":60000}"#)
      let changed = try await client.call(
        .get, "/v1/reports/2026-10?today=2026-10-20", auth: .read, headers: [.ifNoneMatch: etag])
      #expect(changed.status == 200)
      #expect(changed.headers[.eTag] != etag)
    }
  }

  @Test func aChangeByAnotherConnectionIsSeen() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let first = try await client.call(.get, "/v1/reports/2026-10", auth: .read)
      // The CLI, in another process, would write through its own connection like this.
      try harness.database.saveSectionStates(["trends": true])
      let second = try await client.call(.get, "/v1/reports/2026-10", auth: .read)
      #expect(first.headers[.eTag] != second.headers[.eTag])
      func trends(_ reply: ServerHarness.Reply) -> Bool? {
        reply.json["sections"]?.array?.first { $0["id"]?.string == "trends" }?["expanded"]?.bool
      }
      #expect(trends(first) == false)
      #expect(trends(second) == true)
      #expect(second.text.contains("\"today\" : \"2026-10-20\""))
    }
  }

  @Test func badMonthOrTodayIs400NamingTheField() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let month = try await client.call(.get, "/v1/reports/2026-13", auth: .read)
      #expect(month.status == 400)
      #expect(month.json["field"]?.string == "month")
      let today = try await client.call(.get, "/v1/reports/2026-10?today=yesterday", auth: .read)
      #expect(today.status == 400)
      #expect(today.json["field"]?.string == "today")
    }
  }
}

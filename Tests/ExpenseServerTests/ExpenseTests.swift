import ExpenseCore
import ExpenseStore
import Foundation
import Testing

@testable import ExpenseServer

/// Handler tests, on a SQLite file as `serve` opens it and on the memory store (no disk).
@Suite struct ExpenseTests {
  @Test(arguments: ServerHarness.Storage.allCases)
  func paginationReturnsEveryRowExactlyOnceWhileRowsAreAdded(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports?file=a.csv", csv: ServerHarness.csv(rows: 250))
      let before = Set(try harness.database.expenses(month: nil, category: nil, limit: nil).compactMap(\.id))
      #expect(before.count == 251)
      var seen: [Int64] = []
      var cursor: String?
      var page = 0
      repeat {
        let uri = "/v1/expenses?limit=37" + (cursor.map { "&cursor=\($0)" } ?? "")
        let reply = try await client.call(.get, uri, auth: .read)
        #expect(reply.status == 200)
        seen += reply.json["items"]?.array?.compactMap { $0["id"]?.integer } ?? []
        cursor = reply.json["nextCursor"]?.string
        // Rows arrive between pages: some days before the cursor, some after.
        try await client.call(
          .post, "/v1/imports?file=b\(page).csv", csv: ServerHarness.csv(rows: 3, start: 1000 + page * 3))
        page += 1
      } while cursor != nil && page < 100
      #expect(cursor == nil)
      #expect(Set(seen).count == seen.count, "a row came twice")
      #expect(before.isSubset(of: Set(seen)), "a row that was there from the start was skipped")
    }
  }

  @Test(arguments: ServerHarness.Storage.allCases)
  func filtersLimitsAndCursorsAreChecked(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 120))
      let first = try await client.call(.get, "/v1/expenses", auth: .read)
      #expect(first.json["items"]?.array?.count == 100)
      let september = try await client.call(.get, "/v1/expenses?month=2026-09", auth: .read)
      #expect(september.json["items"]?.array?.count == 1)
      #expect(september.json["nextCursor"] == nil)
      let rent = try await client.call(.get, "/v1/expenses?category=rent", auth: .read)
      #expect(rent.json["items"]?.array?.first?["category"]?.string == "Rent")
      for (query, field) in [
        ("limit=0", "limit"), ("limit=501", "limit"), ("limit=x", "limit"), ("month=13", "month"),
        ("cursor=zz", "cursor"),
      ] {
        let reply = try await client.call(.get, "/v1/expenses?\(query)", auth: .read)
        #expect(reply.status == 400, "\(query)")
        #expect(reply.json["field"]?.string == field, "\(query)")
      }
    }
  }

  @Test(arguments: ServerHarness.Storage.allCases)
  func patchAndDelete(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 2))
      let id = try #require(try harness.database.expenses(month: nil, category: nil, limit: nil).first?.id)
      let patched = try await client.call(
        .patch, "/v1/expenses/\(id)", json: #"{"description":"Corner shop","amountMinor":-999,"category":"Food"}"#)
      #expect(patched.status == 200)
      #expect(patched.json["amountMinor"]?.integer == -999)
      #expect(patched.json["category"]?.string == "Food")
      #expect(try harness.database.expense(id: id)?.description == "Corner shop")
      #expect(
        try await client.call(.get, "/v1/expenses/\(id)", auth: .read).json["description"]?.string == "Corner shop")
      #expect(try await client.call(.patch, "/v1/expenses/\(id)", json: "{}").status == 400)
      let badDate = try await client.call(.patch, "/v1/expenses/\(id)", json: #"{"date":"2026-02-30"}"#)
      #expect(badDate.status == 400)
      #expect(badDate.json["field"]?.string == "date")
      let unknown = try await client.call(.patch, "/v1/expenses/\(id)", json: #"{"colour":"red"}"#)
      #expect(unknown.status == 400)
      #expect(try await client.call(.patch, "/v1/expenses/999999", json: #"{"description":"x"}"#).status == 404)
      let badID = try await client.call(.get, "/v1/expenses/abc", auth: .read)
      #expect(badID.status == 400)
      #expect(badID.json["field"]?.string == "id")
      #expect(try await client.call(.delete, "/v1/expenses/\(id)").status == 204)
      #expect(try harness.database.expense(id: id) == nil)
      #expect(try await client.call(.delete, "/v1/expenses/\(id)").status == 404)
      #expect(try await client.call(.get, "/v1/expenses/\(id)", auth: .read).status == 404)
    }
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import Testing

@testable import ExpenseServer

/// Handler tests, on a SQLite file as `serve` opens it and on the memory store (no disk).
@Suite struct ResourceTests {
  @Test(arguments: ServerHarness.Storage.allCases)
  func budgets(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      let put = try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":40000}"#)
      #expect(put.status == 200)
      #expect(put.json["currency"]?.string == "USD")
      #expect(put.json["month"] == nil)
      let december = try await client.call(
        .put, "/v1/budgets/groceries", json: #"{"amountMinor":90000,"month":"2026-12","currency":"usd"}"#)
      #expect(december.json["category"]?.string == "Groceries")
      #expect(december.json["month"]?.string == "2026-12")
      #expect(try await client.call(.get, "/v1/budgets", auth: .read).json["budgets"]?.array?.count == 2)
      #expect(try await client.call(.get, "/v1/budgets/GROCERIES", auth: .read).json["budgets"]?.array?.count == 2)
      #expect(try await client.call(.get, "/v1/budgets/Travel", auth: .read).status == 404)
      let negative = try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":-1}"#)
      #expect(negative.status == 422)
      #expect(negative.json["field"]?.string == "amountMinor")
      let float = try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":12.5}"#)
      #expect(float.status == 400)
      #expect(float.json["field"]?.string == "amountMinor")
      #expect(
        try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":1,"currency":"XXQ"}"#).status == 422)
      #expect(try await client.call(.delete, "/v1/budgets/Groceries?month=2026-12").status == 204)
      #expect(try await client.call(.delete, "/v1/budgets/Groceries?month=2026-12").status == 404)
      #expect(try harness.database.budgets().count == 1)
    }
  }

  /// A budget's rollover over HTTP: set with the amount, kept when the amount is set again
  /// without it, listed with every budget, and the report's row shows what carried in.
  @Test(arguments: ServerHarness.Storage.allCases)
  func budgetsCarryOver(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 3))
      let put = try await client.call(
        .put, "/v1/budgets/Rent", json: #"{"amountMinor":150000,"month":"2026-09","rollover":"surplus"}"#)
      #expect(put.status == 200 && put.json["rollover"]?.string == "surplus", "\(put.text)")
      let again = try await client.call(.put, "/v1/budgets/Rent", json: #"{"amountMinor":150000}"#)
      #expect(again.json["rollover"]?.string == "surplus")
      let listed = try await client.call(.get, "/v1/budgets", auth: .read).json["budgets"]?.array ?? []
      #expect(listed.compactMap { $0["rollover"]?.string } == ["surplus", "surplus"])
      let report = try await client.call(.get, "/v1/reports/2026-10?today=2026-10-20", auth: .read).json
      let rent = report["groups"]?.array?.first?["categories"]?.array?.first { $0["category"]?.string == "Rent" }
      // September: $1,500 budget, $1,200 spent: $300 carries into October.
      #expect(rent?["carriedInMinor"]?.integer == 30_000)
      #expect(rent?["availableMinor"]?.integer == 180_000)
      #expect(rent?["carriedFromMonths"]?.array?.compactMap(\.string) == ["2026-09"])
      // A move over HTTP: recorded, counted in the month's report, taken back.
      try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":40000}"#)
      let move = try await client.call(
        .post, "/v1/budgets/moves", json: #"{"amountMinor":5000,"from":"groceries","to":"Rent","month":"2026-10"}"#)
      #expect(move.status == 201 && move.json["from"]?.string == "Groceries", "\(move.text)")
      let moved = try await client.call(.get, "/v1/reports/2026-10?today=2026-10-20", auth: .read).json
      #expect(moved["groups"]?.array?.first?["moves"]?.array?.count == 1)
      let tooMuch = try await client.call(
        .post, "/v1/budgets/moves", json: #"{"amountMinor":9000000,"from":"Groceries","to":"Rent"}"#)
      #expect(tooMuch.status == 409)
      #expect(try await client.call(.delete, "/v1/budgets/moves/\(move.json["id"]?.integer ?? 0)").status == 204)
      #expect(try await client.call(.delete, "/v1/budgets/moves/\(move.json["id"]?.integer ?? 0)").status == 404)
      // A goal over HTTP: added, listed with its standing, removed.
      let goal = try await client.call(
        .post, "/v1/goals", json: #"{"name":"Car","targetMinor":120000,"by":"2027-09","category":"Car"}"#)
      #expect(goal.status == 201 && goal.json["status"]?.string == "onTrack", "\(goal.text)")
      #expect(try await client.call(.get, "/v1/goals", auth: .read).json["goals"]?.array?.count == 1)
      let past = try await client.call(
        .post, "/v1/goals", json: #"{"name":"Old","targetMinor":1,"by":"2020-01","category":"Car"}"#)
      #expect(past.status == 422)
      #expect(try await client.call(.delete, "/v1/goals/\(goal.json["id"]?.integer ?? 0)").status == 204)
      #expect(try await client.call(.delete, "/v1/goals/\(goal.json["id"]?.integer ?? 0)").status == 404)
      let bad = try await client.call(.put, "/v1/budgets/Rent", json: #"{"amountMinor":1,"rollover":"sometimes"}"#)
      #expect(bad.status == 422 || bad.status == 400)
    }
  }

  /// A yearly budget over HTTP: set with its period, kept when the amount is set again,
  /// listed, and the report's row measures the year so far while the total counts the month's
  /// share.
  @Test(arguments: ServerHarness.Storage.allCases)
  func budgetsByTheYear(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 3))
      let put = try await client.call(.put, "/v1/budgets/Rent", json: #"{"amountMinor":1200000,"period":"year"}"#)
      #expect(put.status == 200 && put.json["period"]?.string == "year", "\(put.text)")
      let again = try await client.call(.put, "/v1/budgets/Rent", json: #"{"amountMinor":1800000}"#)
      #expect(again.json["period"]?.string == "year" && again.json["rollover"]?.string == "off")
      let listed = try await client.call(.get, "/v1/budgets", auth: .read).json["budgets"]?.array ?? []
      #expect(listed.compactMap { $0["period"]?.string } == ["year"])
      let report = try await client.call(.get, "/v1/reports/2026-10?today=2026-10-20", auth: .read).json
      let rent = report["groups"]?.array?.first?["categories"]?.array?.first { $0["category"]?.string == "Rent" }
      #expect(rent?["period"]?.string == "year" && rent?["periodFrom"]?.string == "2026-01")
      #expect(rent?["budgetMinor"]?.integer == 1_800_000)
      let share = rent?["monthShareMinor"]?.integer
      #expect(share == 152_877, "1,800,000 × 31 ÷ 365, by the days through October less those before")
      let total = report["groups"]?.array?.first?["totals"]?["budgetMinor"]?.integer
      #expect(total == share, "the month's total counts the share, not the year")
      let month = try await client.call(
        .put, "/v1/budgets/Rent", json: #"{"amountMinor":100,"month":"2026-11"}"#)
      #expect(month.status == 422, "a yearly budget has no month's amount")
      let bad = try await client.call(.put, "/v1/budgets/Rent", json: #"{"amountMinor":1,"period":"decade"}"#)
      #expect(bad.status == 400 && bad.text.contains("month, quarter, year"), "\(bad.text)")
    }
  }

  @Test(arguments: ServerHarness.Storage.allCases)
  func categoriesWithKinds(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 2))
      let put = try await client.call(.put, "/v1/categories/Salary", json: #"{"kind":"income"}"#)
      #expect(put.status == 200)
      #expect(put.json["kind"]?.string == "income")
      let list = try await client.call(.get, "/v1/categories", auth: .read)
      let names = list.json["categories"]?.array?.compactMap { $0["name"]?.string } ?? []
      #expect(names.contains("Groceries") && names.contains("Salary"))
      #expect(try await client.call(.get, "/v1/categories/groceries", auth: .read).json["expenseCount"]?.integer == 2)
      let badKind = try await client.call(.put, "/v1/categories/Salary", json: #"{"kind":"savings"}"#)
      #expect(badKind.status == 400)
      #expect(badKind.json["field"]?.string == "kind")
      #expect(try await client.call(.delete, "/v1/categories/Groceries").status == 409)
      #expect(try await client.call(.delete, "/v1/categories/Salary").status == 204)
      #expect(try await client.call(.get, "/v1/categories/Salary", auth: .read).status == 404)
      #expect(try await client.call(.delete, "/v1/categories/Salary").status == 404)
    }
  }

  @Test(arguments: ServerHarness.Storage.allCases)
  func rules(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      let put = try await client.call(.put, "/v1/rules/7", json: #"{"pattern":"SHOP","category":"Groceries"}"#)
      #expect(put.status == 200)
      #expect(put.json["field"]?.string == "description")
      let replaced = try await client.call(
        .put, "/v1/rules/7", json: #"{"pattern":"Visa","category":"Cards","field":"account"}"#)
      #expect(replaced.json["pattern"]?.string == "Visa")
      #expect(try harness.database.rules().count == 1)
      #expect(try await client.call(.get, "/v1/rules/7", auth: .read).json["category"]?.string == "Cards")
      #expect(try await client.call(.get, "/v1/rules", auth: .read).json["rules"]?.array?.count == 1)
      #expect(try await client.call(.put, "/v1/rules/8", json: #"{"pattern":"","category":"X"}"#).status == 400)
      let missing = try await client.call(.put, "/v1/rules/8", json: #"{"pattern":"x"}"#)
      #expect(missing.status == 400)
      #expect(missing.json["field"]?.string == "category")
      #expect(try await client.call(.delete, "/v1/rules/7").status == 204)
      #expect(try await client.call(.get, "/v1/rules/7", auth: .read).status == 404)
      #expect(try await client.call(.delete, "/v1/rules/7").status == 404)
    }
  }

  @Test(arguments: ServerHarness.Storage.allCases)
  func changesGrowWithEveryWrite(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      let first = try await client.call(.get, "/v1/changes", auth: .read)
      let revision = try #require(first.json["revision"]?.string)
      let quiet = try await client.call(.get, "/v1/changes?since=\(revision)", auth: .read)
      #expect(quiet.json["changed"]?.bool == false)
      var last = revision
      for write in [
        { try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":1}"#) },
        { try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 1)) },
        { try await client.call(.put, "/v1/sections/trends", json: #"{"expanded":true}"#) },
        { try await client.call(.put, "/v1/rules/1", json: #"{"pattern":"a","category":"B"}"#) },
      ] as [() async throws -> ServerHarness.Reply] {
        _ = try await write()
        let reply = try await client.call(.get, "/v1/changes?since=\(last)", auth: .read)
        #expect(reply.json["changed"]?.bool == true)
        let now = try #require(reply.json["revision"]?.string)
        #expect(Int(now.dropFirst())! > Int(last.dropFirst())!)
        last = now
      }
      // An edit that leaves the rollup alone counts too.
      let id = try #require(try harness.database.expenses(month: nil, category: nil, limit: nil).first?.id)
      try await client.call(.patch, "/v1/expenses/\(id)", json: #"{"description":"renamed"}"#)
      #expect(try await client.call(.get, "/v1/changes?since=\(last)", auth: .read).json["changed"]?.bool == true)
      let bad = try await client.call(.get, "/v1/changes?since=yesterday", auth: .read)
      #expect(bad.status == 400)
      #expect(bad.json["field"]?.string == "since")
    }
  }
}

import ExpenseCore
import Foundation
import Testing

@testable import ExpenseServer

/// `GET /v1/expenses?search=` (with `min`, `max`, `from`, `to`): the rows `list --search` finds,
/// every page a sub-list of the store's order, followed by its cursor to the end; bad bounds are
/// 400 naming the parameter. Every answer is checked against the OpenAPI document.
@Suite struct SearchRouteTests {
  @Test(arguments: ServerHarness.Storage.allCases)
  func aSearchPagesThroughEveryMonth(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 40))
      // "Shop 1", "Shop 10" … "Shop 19": eleven rows hold "shop 1".
      var found: [Int] = []
      var cursor: String?
      var pages = 0
      repeat {
        let uri = "/v1/expenses?search=SHOP%201&limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
        let page = try await client.call(.get, uri, auth: .read)
        #expect(page.status == 200, "\(page.text)")
        let items = page.json["items"]?.array ?? []
        #expect(items.count <= 5)
        found += items.compactMap { $0["description"]?.string }.map { _ in 1 }
        #expect(items.allSatisfy { $0["description"]?.string?.lowercased().contains("shop 1") == true })
        cursor = page.json["nextCursor"]?.string
        pages += 1
      } while cursor != nil && pages < 50
      #expect(found.count == 11, "every match once")
      // Bounds: sizes 10.25 to 12.25 are Shop 9, 10 and 11.
      let bounded = try await client.call(.get, "/v1/expenses?min=10.25&max=12.25&limit=100", auth: .read)
      let sizes = (bounded.json["items"]?.array ?? []).compactMap { $0["amountMinor"]?.integer }
      #expect(Set(sizes) == [-1025, -1125, -1225], "\(bounded.text)")
      let september = try await client.call(.get, "/v1/expenses?search=rent&to=2026-09-30", auth: .read)
      #expect(september.json["items"]?.array?.count == 1)
      let bad = try await client.call(.get, "/v1/expenses?min=ten", auth: .read)
      #expect(bad.status == 400 && bad.json["field"]?.string == "min", "\(bad.text)")
      let backwards = try await client.call(.get, "/v1/expenses?from=2026-10-05&to=2026-10-01", auth: .read)
      #expect(backwards.status == 422 && backwards.json["field"]?.string == "to")
    }
  }
}

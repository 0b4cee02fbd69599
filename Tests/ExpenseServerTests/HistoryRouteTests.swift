import ExpenseCore
import ExpenseStore
import Foundation
import Testing

@testable import ExpenseServer

/// The history over HTTP: the same numbered changes as the CLI's, an undo that brings a
/// deleted row back under its id, the token named beside the user, and read tokens that see
/// the history but cannot undo. Every answer is checked against the OpenAPI document.
@Suite struct HistoryRouteTests {
  @Test(arguments: ServerHarness.Storage.allCases)
  func deleteUndoneOverHTTP(_ storage: ServerHarness.Storage) async throws {
    let harness = try ServerHarness(storage: storage)
    try await harness.run { client in
      let imported = try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 3))
      #expect(imported.status == 201, "\(imported.text)")
      let row = try await client.call(.get, "/v1/expenses/2", auth: .read)
      #expect(try await client.call(.delete, "/v1/expenses/2").status == 204)
      #expect(try await client.call(.get, "/v1/expenses/2", auth: .read).status == 404)

      let history = try await client.call(.get, "/v1/history", auth: .read)
      #expect(history.status == 200, "\(history.text)")
      let changes = history.json["changes"]?.array ?? []
      #expect(changes.compactMap { $0["action"]?.string } == ["delete", "import"])
      let delete = try #require(changes.first)
      #expect(delete["by"]?.string?.contains("token") == true, "\(history.text)")
      let id = try #require(delete["id"]?.integer)

      #expect(try await client.call(.post, "/v1/history/\(id)/undo", auth: .read).status == 403)
      let undo = try await client.call(.post, "/v1/history/\(id)/undo")
      #expect(undo.status == 200, "\(undo.text)")
      #expect(undo.json["undone"]?["undoneBy"]?.integer == undo.json["change"]?["id"]?.integer)
      #expect(try await client.call(.get, "/v1/expenses/2", auth: .read).text == row.text)
      // Undone already: a conflict; a number the history never gave: not found.
      #expect(try await client.call(.post, "/v1/history/\(id)/undo").status == 409)
      #expect(try await client.call(.post, "/v1/history/999/undo").status == 404)
      #expect(try await client.call(.get, "/v1/history?limit=1", auth: .read).json["changes"]?.array?.count == 1)
      #expect(try await client.call(.get, "/v1/history?limit=0", auth: .read).status == 400)
    }
  }
}

import Foundation
import HTTPTypes
import Testing

@testable import ExpenseServer

@Suite struct SectionTests {
  @Test func sectionsAreSharedWithTheStoreAndGuardedByIfMatch() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let list = try await client.call(.get, "/v1/sections", auth: .read)
      #expect(list.status == 200)
      #expect(list.json["accordion"]?.bool == false)
      let tag = try #require(list.headers[.eTag])
      #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))

      let expanded = try await client.call(
        .put, "/v1/sections/expenses", headers: [.ifMatch: tag], json: #"{"expanded":true}"#)
      #expect(expanded.status == 200)
      let expenses = expanded.json["sections"]?.array?.first { $0["id"]?.string == "expenses" }
      #expect(expenses?["expanded"]?.bool == true)
      #expect(try harness.database.sectionStates()["expenses"] == true)

      // The tag read before that change is stale now.
      let stale = try await client.call(
        .put, "/v1/sections/trends", headers: [.ifMatch: tag], json: #"{"expanded":true}"#)
      #expect(stale.status == 412)
      #expect(try harness.database.sectionStates()["trends"] != true)

      // Without If-Match the change applies.
      let accordion = try await client.call(.put, "/v1/sections/accordion", json: #"{"enabled":true}"#)
      #expect(accordion.status == 200)
      #expect(accordion.json["accordion"]?.bool == true)
      #expect(try harness.database.setting("accordion") == "on")
      let open = accordion.json["sections"]?.array?.filter {
        $0["expanded"]?.bool == true && $0["id"]?.string != "summary"
      }
      #expect(open?.count == 1)
    }
  }

  @Test func sectionValidation() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      #expect(try await client.call(.put, "/v1/sections/nope", json: #"{"expanded":true}"#).status == 404)
      #expect(try await client.call(.put, "/v1/sections/summary", json: #"{"expanded":false}"#).status == 422)
      let wrongType = try await client.call(.put, "/v1/sections/trends", json: #"{"expanded":"yes"}"#)
      #expect(wrongType.status == 400)
      #expect(wrongType.json["field"]?.string == "expanded")
      let missing = try await client.call(.put, "/v1/sections/trends", json: #"{}"#)
      #expect(missing.status == 400)
      #expect(missing.json["field"]?.string == "expanded")
      let notJSON = try await client.call(.put, "/v1/sections/trends", json: "{")
      #expect(notJSON.status == 400)
      let media = try await client.call(
        .put, "/v1/sections/trends", headers: [.contentType: "text/plain"], json: #"{"expanded":true}"#)
      #expect(media.status == 415)
    }
  }
}

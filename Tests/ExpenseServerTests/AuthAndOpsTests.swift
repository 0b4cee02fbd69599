import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import HTTPTypes
import Testing

@testable import ExpenseServer

@Suite struct AuthAndOpsTests {
  @Test func healthAndMetricsNeedNoToken() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let health = try await client.call(.get, "/health", auth: .none)
      #expect(health.status == 200)
      #expect(health.json["status"]?.string == "ok")
      #expect(health.json["schemaVersion"]?.integer == Int64(AppDatabase.schemaVersion), "the serving store's schema")
      #expect(health.headers[.init("X-Request-Id")!] != nil)
      try await client.call(.get, "/v1/sections")
      let metrics = try await client.call(.get, "/metrics", auth: .none)
      #expect(metrics.status == 200)
      #expect(metrics.text.contains("hb_requests"), "\(metrics.text.prefix(400))")
    }
  }

  @Test func everyV1RequestNeedsAValidBearerToken() async throws {
    let harness = try ServerHarness()
    try harness.database.createToken(
      APIToken(name: "old", scope: .write, createdAt: "2026-01-01T00:00:00Z", expiresAt: "2026-02-01T00:00:00Z"),
      hash: TokenHasher.hash("exp_expired"))
    try harness.database.createToken(
      APIToken(name: "gone", scope: .write, createdAt: "2026-01-01T00:00:00Z"), hash: TokenHasher.hash("exp_revoked"))
    try harness.database.revokeToken(name: "gone", at: "2026-01-02T00:00:00Z")
    try await harness.run { client in
      for auth: ServerHarness.Client.Auth in [
        .none, .raw("Bearer nope"), .raw("Basic abc"), .raw("Bearer exp_expired"), .raw("Bearer exp_revoked"),
      ] {
        let reply = try await client.call(.get, "/v1/reports/2026-10", auth: auth)
        #expect(reply.status == 401)
        #expect(reply.headers[.contentType] == "application/problem+json")
        #expect(reply.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
      }
    }
  }

  @Test func aReadTokenReadsButCannotWrite() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      #expect(try await client.call(.get, "/v1/budgets", auth: .read).status == 200)
      let writes: [(HTTPRequestMethod, String, String?)] = [
        (.put, "/v1/budgets/Food", #"{"amountMinor":100}"#), (.delete, "/v1/rules/1", nil),
        (.put, "/v1/sections/expenses", #"{"expanded":true}"#), (.patch, "/v1/expenses/1", #"{"description":"x"}"#),
      ]
      for (method, uri, json) in writes {
        let reply = try await client.call(method.method, uri, auth: .read, json: json)
        #expect(reply.status == 403, "\(uri)")
        #expect(reply.json["detail"]?.string?.contains("read scope") == true)
      }
      let upload = try await client.call(.post, "/v1/imports", auth: .read, csv: ServerHarness.csv(rows: 1))
      #expect(upload.status == 403)
    }
  }

  @Test func unknownRoutesAreProblems() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let reply = try await client.client.execute(
        uri: "/v1/nothing", method: .get, headers: [.authorization: "Bearer \(harness.writeToken)"])
      #expect(reply.status == .notFound)
      #expect(reply.headers[.contentType] == "application/problem+json")
    }
  }

  @Test func tokensAreStoredOnlyAsHashes() throws {
    let token = TokenHasher.newToken()
    #expect(token.hasPrefix("exp_") && token.count == 47)
    #expect(TokenHasher.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let harness = try ServerHarness()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: harness.path))
    #expect(bytes.range(of: Data(harness.writeToken.utf8)) == nil)
  }
}

/// HTTP methods by name, for tables of requests.
enum HTTPRequestMethod {
  case get, put, patch, delete, post
  var method: HTTPRequest.Method {
    switch self {
    case .get: return .get
    case .put: return .put
    case .patch: return .patch
    case .delete: return .delete
    case .post: return .post
    }
  }
}

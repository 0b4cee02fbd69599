import ExpenseSQLite
import ExpenseService
import ExpenseStore
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import ExpenseServer

/// Revocation and expiry take effect on the very next request, whoever changed the database.
@Suite struct TokenRevocationTests {
  @Test func aTokenRevokedByAnotherConnectionIsRefusedOnTheNextRequest() async throws {
    let harness = try ServerHarness()
    // Another handle on the file, as `expenses token revoke` in another process would open.
    let other = try AppDatabase(path: harness.path)
    try await harness.run { client in
      for _ in 0..<3 { #expect(try await client.call(.get, "/v1/budgets").status == 200) }
      let before = try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":100}"#)
      #expect(before.status == 200)
      try other.revokeToken(name: "writer", at: "2026-10-20T12:00:00Z")
      let after = try await client.call(.put, "/v1/budgets/Food", json: #"{"amountMinor":999}"#)
      #expect(after.status == 401)
      #expect(try await client.call(.get, "/v1/budgets").status == 401)
      // The refused write changed nothing.
      let budgets = try await client.call(.get, "/v1/budgets", auth: .read)
      #expect(budgets.json["budgets"]?.array?.first?["amountMinor"]?.integer == 100)
      // A token created by the other handle is accepted at once.
      let fresh = TokenHasher.newToken()
      try other.createToken(
        APIToken(name: "fresh", scope: .write, createdAt: "2026-10-20T12:00:00Z"), hash: TokenHasher.hash(fresh))
      #expect(try await client.call(.get, "/v1/budgets", auth: .raw("Bearer \(fresh)")).status == 200)
    }
  }

  @Test func aTokenIsRefusedOnTheFirstRequestAfterItExpires() async throws {
    let now = Mutex(ServerHarness.now)
    let clock = ServerClock(now: { now.withLock { $0 } }, today: { ServerHarness.today })
    let harness = try ServerHarness(clock: clock)
    let secret = TokenHasher.newToken()
    try harness.database.createToken(
      APIToken(name: "brief", scope: .write, createdAt: "2026-10-20T11:00:00Z", expiresAt: "2026-10-20T12:00:30Z"),
      hash: TokenHasher.hash(secret))
    let auth = ServerHarness.Client.Auth.raw("Bearer \(secret)")
    try await harness.run { client in
      let first = try await client.call(.get, "/v1/budgets", auth: auth)
      #expect(first.status == 200)
      now.withLock { $0 = $0.addingTimeInterval(29) }
      let before = try await client.call(.get, "/v1/budgets", auth: auth)
      #expect(before.status == 200)
      now.withLock { $0 = $0.addingTimeInterval(1) }
      let after = try await client.call(.get, "/v1/budgets", auth: auth)
      #expect(after.status == 401)
    }
  }
}

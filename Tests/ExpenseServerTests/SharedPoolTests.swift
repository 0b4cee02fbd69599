import ExpenseCore
import ExpenseService
import ExpenseStore
import ExpenseStores
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceTestSupport
import Synchronization
import TestSupport
import Testing

@testable import ExpenseServer

/// A server on PostgreSQL shares one bounded pool among all its ledgers (`serve --pool-size`):
/// twelve ledgers, each imported into and read at once, are served by three connections,
/// counted by the database server itself while the requests run, and every answer is its own
/// ledger's.
@Suite(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
struct SharedPoolTests {
  static let ledgers = (1...12).map { "house\($0)" }

  @Test func twelveLedgersAtOnceAreServedWithinThePool() async throws {
    let server = try PostgresServer.shared()
    let url = try server.makeDatabase()
    let database = PostgresServer.databaseName(of: url)
    let tokens = try Self.ledgersWithTokens(url)
    let (backend, app) = try Self.server(url, poolSize: 3)

    // The database server's count of this database's connections, sampled while requests run.
    let most = Atomic<Int>(0)
    let running = Atomic<Bool>(true)
    let sampler = Task.detached {
      while running.load(ordering: .relaxed) {
        let count = try server.query(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
          database: database)
        let now = Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        _ = most.max(now, ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(20))
      }
    }
    defer { running.store(false, ordering: .relaxed) }

    try await app.test(.router) { client in
      try await withThrowingTaskGroup(of: (String, Int, String).self) { group in
        for ledger in Self.ledgers {
          let caller = LedgerIsolationTests.Caller(client: client, token: tokens[ledger] ?? "")
          group.addTask {
            let reply = try await caller.call(
              .post, "/v1/imports?file=\(ledger).csv",
              csv: "Date,Description,Amount,Category\n2026-10-10,Shop \(ledger) only,-1.00,Groceries\n")
            return (ledger, reply.status, reply.text)
          }
        }
        for try await (ledger, status, text) in group { #expect(status == 201, "\(ledger): \(text)") }
      }
      try await OpenLedgersTests.readAtOnce(client, ledgers: Self.ledgers, tokens: tokens, requests: 120)
    }
    running.store(false, ordering: .relaxed)
    try await sampler.value
    // The stamps came from the one shared read of every ledger's.
    #expect(backend.ledgerStamps != nil)
    #expect(most.load(ordering: .relaxed) <= 3, "\(most.load(ordering: .relaxed)) connections at most")
    #expect(most.load(ordering: .relaxed) >= 1)
    #expect(backend.others.count == Self.ledgers.count)
  }

  /// A server of the database at `url` whose ledgers share a pool of `poolSize`, as `serve`.
  static func server(_ url: String, poolSize: Int) throws -> (ServiceBackend, some ApplicationProtocol) {
    let backend = try ServiceBackend(
      path: url, stores: Stores(poolSize: poolSize), clock: ServerHarness.clock,
      openLedgers: ServiceBackend.defaultPooledOpenLedgers)
    let router = try ExpenseServerApp.router(
      backend: backend, options: .init(uploadDirectory: NSTemporaryDirectory()), clock: ServerHarness.clock)
    return (backend, Application(router: router, logger: Logger(label: "shared-pool")))
  }

  /// The ledgers, each with a writing user and a token of it.
  static func ledgersWithTokens(_ url: String) throws -> [String: String] {
    try OpenLedgersTests.ledgersWithTokens(path: url, ledgers: ledgers)
  }

  /// A token revoked by another process (the CLI) is refused on its next request, and a
  /// commit there is in the next report: the shared read of every ledger's stamps starts
  /// after the request arrived.
  @Test func aRevokedTokenIsRefusedOnItsNextRequestThroughTheSharedStamps() async throws {
    let url = try PostgresServer.shared().makeDatabase()
    let tokens = try Self.ledgersWithTokens(url)
    let (_, app) = try Self.server(url, poolSize: 2)
    try await app.test(.router) { client in
      let caller = LedgerIsolationTests.Caller(client: client, token: tokens["house1"] ?? "")
      let first = try await caller.call(.get, "/v1/reports/2026-10")
      #expect(first.status == 200)
      #expect(!first.text.contains("Shop from the CLI"))
      // Another process writes to the ledger, then revokes the token.
      let cli = try ExpenseService.open(path: url, access: .write, ledger: "house1")
      _ = try cli.addExpense(
        date: CivilDate(year: 2026, month: 10, day: 10)!, amount: "1", description: "Shop from the CLI",
        category: "Groceries", account: nil, currency: nil)
      let second = try await caller.call(.get, "/v1/reports/2026-10")
      #expect(second.status == 200)
      #expect(second.text.contains("Shop from the CLI"), "the report after the CLI's commit has its row")
      try cli.revokeToken(name: "t-house1")
      let third = try await caller.call(.get, "/v1/reports/2026-10")
      #expect(third.status == 401, "\(third.text)")
    }
  }
}

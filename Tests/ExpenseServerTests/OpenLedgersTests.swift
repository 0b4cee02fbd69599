import ExpenseCore
import ExpenseService
import ExpenseStore
import ExpenseStores
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceTestSupport
import TestSupport
import Testing

@testable import ExpenseServer

/// A server serves any number of ledgers with a bounded number of them open: ledgers used in
/// turn beyond `--open-ledgers` are closed and reopened, every answer stays right, and in
/// PostgreSQL the server's connections stay under the bound instead of growing with the
/// ledgers (at a few dozen ledgers they would take all the server allows).
@Suite struct OpenLedgersTests {
  static let ledgers = ["l1", "l2", "l3", "l4", "l5"]

  @Test func ledgersBeyondTheBoundAreClosedAndReopenedInSQLite() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-open-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.cycle(path: folder.appendingPathComponent("e.sqlite").path, uploads: folder.path) { @Sendable in nil
    }
  }

  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
  func ledgersBeyondTheBoundAreClosedAndReopenedInPostgreSQL() async throws {
    let server = try PostgresServer.shared()
    let url = try server.makeDatabase()
    let database = PostgresServer.databaseName(of: url)
    try await Self.cycle(path: url, uploads: NSTemporaryDirectory()) {
      // Connections of this database, less the one asking.
      let count = try server.query(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
        database: database)
      return Int(count.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  /// Requests of five ledgers at once through a bound of one: a ledger is never closed under a
  /// request (each answers from its own rows), and once they are done one ledger is open.
  @Test(arguments: TestTier.postgres ? ["sqlite", "postgres"] : ["sqlite"])
  func concurrentRequestsNeverMeetAClosedLedger(kind: String) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-open-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path =
      kind == "sqlite" ? folder.appendingPathComponent("e.sqlite").path : try PostgresServer.shared().makeDatabase()
    let tokens = try Self.ledgersWithTokens(path: path)
    let backend = try ServiceBackend(
      path: path, stores: Stores(), readerCount: 1, clock: ServerHarness.clock, openLedgers: 1)
    let router = try ExpenseServerApp.router(
      backend: backend, options: .init(uploadDirectory: folder.path), clock: ServerHarness.clock)
    let app = Application(router: router, logger: Logger(label: "open-ledgers"))
    try await app.test(.router) { client in
      for ledger in Self.ledgers {
        let caller = LedgerIsolationTests.Caller(client: client, token: tokens[ledger] ?? "")
        let imported = try await caller.call(
          .post, "/v1/imports?file=\(ledger).csv",
          csv: "Date,Description,Amount,Category\n2026-10-10,Shop \(ledger) only,-1.00,Groceries\n")
        #expect(imported.status == 201, "\(imported.text)")
      }
      try await Self.readAtOnce(client, ledgers: Self.ledgers, tokens: tokens, requests: 60)
    }
    #expect(backend.others.count == 1, "open: \(backend.others.count)")
  }

  /// `requests` listings and reports at once, spread over `ledgers`: each answers 200 with its
  /// own ledger's row ("Shop LEDGER only") and no other ledger's.
  static func readAtOnce(
    _ client: any TestClientProtocol, ledgers: [String], tokens: [String: String], requests: Int
  ) async throws {
    try await withThrowingTaskGroup(of: (String, Int, String).self) { group in
      for index in 0..<requests {
        let ledger = ledgers[index % ledgers.count]
        let caller = LedgerIsolationTests.Caller(client: client, token: tokens[ledger] ?? "")
        group.addTask {
          let reply = try await caller.call(.get, index % 2 == 0 ? "/v1/expenses" : "/v1/reports/2026-10")
          return (ledger, reply.status, reply.text)
        }
      }
      for try await (ledger, status, text) in group {
        #expect(status == 200, "\(ledger): \(text)")
        #expect(text.contains("Shop \(ledger) only"), "\(ledger): \(text)")
        #expect(ledgers.filter { $0 != ledger }.allSatisfy { !text.contains("Shop \($0) only") })
      }
    }
  }

  /// The ledgers (`l1`…`l5` unless told), each with a writing user and a token of it, made
  /// through a connection of its own that is closed when this returns.
  static func ledgersWithTokens(path: String, ledgers: [String] = ledgers) throws -> [String: String] {
    var made: [String: String] = [:]
    let main = try ExpenseService.open(path: path, access: .write)
    for ledger in ledgers {
      try main.createLedger(ledger)
      try main.addMember(user: "u-\(ledger)", ledger: ledger, role: .write)
      let token = TokenHasher.newToken()
      try main.createToken(
        name: "t-\(ledger)", scope: .write, expiresInDays: nil, hash: TokenHasher.hash(token), user: "u-\(ledger)",
        ledger: ledger)
      made[ledger] = token
    }
    return made
  }

  /// Five ledgers with a row each, a server that keeps two open, three rounds of every ledger's
  /// report and an import into each: every answer is its own ledger's, and at most two are open
  /// between requests. `connections` counts the database's connections where it can.
  static func cycle(path: String, uploads: String, connections: @escaping @Sendable () throws -> Int?) async throws {
    let tokens = try ledgersWithTokens(path: path)
    let backend = try ServiceBackend(
      path: path, stores: Stores(), readerCount: 1, clock: ServerHarness.clock, openLedgers: 2)
    let router = try ExpenseServerApp.router(
      backend: backend, options: .init(uploadDirectory: uploads), clock: ServerHarness.clock)
    let app = Application(router: router, logger: Logger(label: "open-ledgers"))
    try await app.test(.router) { client in
      for round in 0..<3 {
        for ledger in ledgers {
          let caller = LedgerIsolationTests.Caller(client: client, token: tokens[ledger] ?? "")
          let name = "Shop \(ledger) \(round)"
          let imported = try await caller.call(
            .post, "/v1/imports?file=\(ledger)-\(round).csv",
            csv: "Date,Description,Amount,Category\n2026-10-1\(round),\(name),-\(round + 1).00,Groceries\n")
          #expect(imported.status == 201, "\(ledger): \(imported.text)")
          let page = try await caller.call(.get, "/v1/expenses?limit=50")
          #expect(page.status == 200)
          let rows = page.json["items"]?.array ?? []
          #expect(rows.count == round + 1, "\(ledger) round \(round): \(page.text)")
          #expect(ledgers.filter { $0 != ledger }.allSatisfy { !page.text.contains("Shop \($0) ") }, "\(page.text)")
          let report = try await caller.call(.get, "/v1/reports/2026-10")
          #expect(report.status == 200)
          #expect(backend.others.count <= 2, "open: \(backend.others.count)")
          // The default ledger's writer, reader and watcher, and two other ledgers' as many.
          let settled = try await Self.settled(atMost: 3 + 2 * 3, connections)
          #expect(settled.map { $0 <= 9 } ?? true, "\(settled ?? 0) connections open")
        }
      }
      #expect(backend.others.isOpen("l5") && backend.others.isOpen("l4") && !backend.others.isOpen("l1"))
    }
  }

  /// The connection count once it is at most `bound` (a closed connection's server process
  /// ends a moment after the close), or the last count after five seconds.
  static func settled(atMost bound: Int, _ connections: @Sendable () throws -> Int?) async throws -> Int? {
    var count = try connections()
    for _ in 0..<50 {
      guard let now = count, now > bound else { return count }
      try await Task.sleep(for: .milliseconds(100))
      count = try connections()
    }
    return count
  }
}

import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `expenses serve --read-replica`: a real server on a PostgreSQL primary and a real streaming
/// replica of it (`PostgresReplica`, one per test). Where each read went is read from the
/// server's `/metrics` (`expenses_replica_reads_total`), and every answer is compared with the
/// primary's own bytes (the CLI's report, or a server without a replica).
@Suite struct ServeReplicaTests {
  /// A database with the demo's rows and a budget, a write token, a replica that has replayed
  /// them, and a server reading from it (constants after `init`).
  final class Setup: @unchecked Sendable {
    let cli: CLI
    let url: String
    let replicaURL: String
    let token: String
    let replica: PostgresReplica
    let server: LiveServer
    let base: String

    init(password: String? = nil) throws {
      cli = try CLI()
      let primary = try PostgresServer.shared()
      url = try primary.makeDatabase()
      let created = try cli.run(["token", "create", "replica", "--scope", "write", "--db", url], useDatabase: false)
      #expect(created.code == 0, "\(created.stderr)")
      token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      for arguments in [["import", CLI.fixture("demo/bank.csv")], ["budget", "set", "Groceries", "400"]] {
        let result = try cli.run(arguments + ["--db", url], useDatabase: false)
        #expect(result.code == 0, "\(arguments): \(result.stderr)")
      }
      let replica = try PostgresReplica(of: primary)
      self.replica = replica
      replicaURL = replica.url(of: url, password: password)
      do {
        #expect(try replica.waitForReplay(), "the replica did not catch up")
        server = try LiveServer(cli: cli, db: url, arguments: ["--read-replica", replicaURL])
        base = "http://127.0.0.1:\(try server.port())"
      } catch {
        replica.remove()
        throw error
      }
    }

    deinit {
      server.stop()
      replica.remove()
    }

    /// `expenses ARGS --db URL` (the primary), which must succeed.
    @discardableResult
    func cliOn(_ arguments: [String]) throws -> String {
      let result = try cli.run(arguments + ["--db", url], useDatabase: false)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      return result.stdout
    }

    /// The primary's report, as the CLI prints it.
    func printedReport(today: String) throws -> String {
      try cliOn(["report", "--month", "2026-10", "--today", today, "--format", "json"])
    }

    func get(_ path: String) async throws -> ServeInstancesTests.Answer {
      try await ServeInstancesTests.request("GET", base + path, token: token)
    }

    /// How many reads the server counted with `reason` (`caught_up`: served by the replica).
    func reads(_ reason: String) async throws -> Int {
      let metrics = try await ServeInstancesTests.request("GET", base + "/metrics", token: "")
      for line in metrics.text.split(separator: "\n") where line.hasPrefix("expenses_replica_reads_total{") {
        if line.contains("reason=\"\(reason)\""), let value = line.split(separator: " ").last {
          return Int(Double(value) ?? -1)
        }
      }
      return 0
    }
  }

  static func report(today: String) -> String { "/v1/reports/2026-10?today=\(today)" }

  @Test func aCaughtUpReplicaServesTheReportAndTheListingsWithThePrimarysBytes() async throws {
    let setup = try Setup()
    // The oracle for the listings: a server on the primary alone.
    let plain = try LiveServer(cli: setup.cli, db: setup.url)
    defer { plain.stop() }
    let plainBase = "http://127.0.0.1:\(try plain.port())"

    let report = try await setup.get(Self.report(today: "2026-10-20"))
    #expect(report.status == 200)
    #expect(report.text == (try setup.printedReport(today: "2026-10-20")))
    #expect(try await setup.reads("caught_up") == 1)

    let page = try await setup.get("/v1/expenses?month=2026-10&limit=5")
    let items = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["items"] as? [[String: Any]]
    let id = try #require(items?.first?["id"] as? Int, "\(page.text)")
    let listings = [
      "/v1/expenses?month=2026-10&limit=5", "/v1/expenses/\(id)", "/v1/budgets", "/v1/categories", "/v1/rules",
      "/v1/imports",
    ]
    for path in listings {
      let fromReplica = try await setup.get(path)
      let fromPrimary = try await ServeInstancesTests.request("GET", plainBase + path, token: setup.token)
      #expect(fromReplica.status == 200, "\(path): \(fromReplica.text)")
      #expect(fromReplica.text == fromPrimary.text, "\(path)")
    }
    #expect(try await setup.reads("caught_up") == 2 + listings.count)
    #expect(try await setup.reads("behind") == 0)
    #expect(try await setup.reads("failed") == 0)
  }

  @Test func aClientReadsItsOwnWritesWhileTheReplicaReplaysNothing() async throws {
    let setup = try Setup()
    let database = PostgresServer.databaseName(of: setup.url)
    try setup.replica.pauseReplay()
    // An import through the server, then at once its report: the replica still has the state
    // from before the import, so the primary must answer.
    var csv = "date,amount,description\n"
    for day in 1...28 { csv += "2026-10-\(String(format: "%02d", day)),-\(day).75,replica check \(day)\n" }
    let imported = try await ServeInstancesTests.request(
      "POST", setup.base + "/v1/imports?file=october.csv", token: setup.token, body: Data(csv.utf8),
      headers: ["Content-Type": "text/csv"])
    #expect(imported.status == 201, "\(imported.text)")
    let primaryRevision = try PostgresServer.shared().query("SELECT revision FROM ledger", database: database)
    let replicaRevision = try setup.replica.query("SELECT revision FROM ledger", database: database)
    #expect((Int(replicaRevision) ?? 0) < (Int(primaryRevision) ?? 0), "the replica must be behind for this test")

    let report = try await setup.get(Self.report(today: "2026-10-20"))
    #expect(report.status == 200)
    #expect(report.text == (try setup.printedReport(today: "2026-10-20")))
    #expect(report.text.contains("replica check 28"), "the import is in the report")
    let put = try await ServeInstancesTests.request(
      "PUT", setup.base + "/v1/budgets/Groceries", token: setup.token, body: Data(#"{"amountMinor":43210}"#.utf8),
      headers: ["Content-Type": "application/json"])
    #expect(put.status == 200, "\(put.text)")
    let budgets = try await setup.get("/v1/budgets")
    #expect(budgets.text.contains("43210"), "\(budgets.text)")
    let imports = try await setup.get("/v1/imports")
    #expect(imports.text.contains("october.csv"), "\(imports.text)")
    #expect(try await setup.reads("behind") == 3)
    #expect(try await setup.reads("caught_up") == 0)

    // Replayed, the replica answers, with the same bytes.
    try setup.replica.resumeReplay()
    #expect(try setup.replica.waitForReplay())
    let later = try await setup.get(Self.report(today: "2026-10-21"))
    #expect(later.text == (try setup.printedReport(today: "2026-10-21")))
    #expect(try await setup.reads("caught_up") == 1)
  }

  @Test func aStoppedReplicaLeavesEveryReadToThePrimaryUntilItIsBack() async throws {
    let setup = try Setup(password: "s3cret-replica")
    #expect(try await setup.get(Self.report(today: "2026-10-20")).status == 200)
    #expect(try await setup.reads("caught_up") == 1)

    try setup.replica.stop()
    for day in 21...26 {
      let today = "2026-10-\(day)"
      let report = try await setup.get(Self.report(today: today))
      #expect(report.status == 200, "\(report.text)")
      #expect(report.text == (try setup.printedReport(today: today)))
      #expect(try await setup.get("/v1/expenses?month=2026-10&limit=3").status == 200)
    }
    #expect(try await setup.reads("caught_up") == 1)
    #expect(try await setup.reads("failed") + setup.reads("down") == 12)
    let log = setup.server.stderr()
    #expect(log.contains("read replica postgres://postgres@/"), "\(log)")
    #expect(!log.contains("s3cret"), "the password must not be logged")

    // Back: the server reconnects by itself and the replica serves again.
    try setup.replica.start()
    #expect(try setup.replica.waitForReplay())
    var served = false
    for attempt in 0..<200 where !served {
      // A new today each time: the report cache would answer a repeated one.
      let today = String(format: "2027-%02d-%02d", attempt / 28 % 12 + 1, attempt % 28 + 1)
      #expect(try await setup.get("/v1/reports/2026-10?today=\(today)").status == 200)
      served = try await setup.reads("caught_up") > 1
      if !served { try await Task.sleep(for: .milliseconds(100)) }
    }
    #expect(served, "the replica was not used again: \(setup.server.stderr())")
    let after = setup.server.stderr()
    #expect(after.contains("answers again"))
    // One warning for the outage, however many reads it sent to the primary; the fresh
    // connections fail no more.
    #expect(after.components(separatedBy: "warning expenses: [ExpenseServer] read replica").count == 2, "\(after)")
  }

  @Test func aReplicaThatStopsAnsweringIsLeftAfterTheReadTimeout() async throws {
    let setup = try Setup()
    #expect(try await setup.get(Self.report(today: "2026-10-20")).status == 200)
    #expect(try await setup.reads("caught_up") == 1)
    // Frozen, the replica keeps its connections open and answers nothing, as behind a cut network.
    try setup.replica.freeze()
    var thawed = false
    defer { if !thawed { try? setup.replica.thaw() } }
    // Answered by the primary once the read timeout gave up on the replica. No clock is read
    // here (a loaded machine stalls every request alike): the failed read counted and the
    // log's "no answer within 5" say the timeout, not a dropped connection, moved it.
    let report = try await setup.get(Self.report(today: "2026-10-21"))
    #expect(report.status == 200)
    #expect(report.text == (try setup.printedReport(today: "2026-10-21")))
    #expect(try await setup.reads("failed") == 1)
    // Every connection was dropped with it: the next reads go to the primary at once.
    #expect(try await setup.get("/v1/budgets").status == 200)
    #expect(try await setup.reads("down") == 1)
    #expect(setup.server.stderr().contains("no answer within 5"), "\(setup.server.stderr())")

    try setup.replica.thaw()
    thawed = true
    var served = false
    for attempt in 0..<200 where !served {
      let today = String(format: "2027-%02d-%02d", attempt / 28 % 12 + 1, attempt % 28 + 1)
      #expect(try await setup.get("/v1/reports/2026-10?today=\(today)").status == 200)
      served = try await setup.reads("caught_up") > 1
      if !served { try await Task.sleep(for: .milliseconds(100)) }
    }
    #expect(served, "the replica was not used again: \(setup.server.stderr())")
  }

  /// Another ledger reads its own rows on the replica too, never the `default` ledger's.
  @Test func anotherLedgerReadsItsOwnRowsFromTheReplica() async throws {
    let setup = try Setup()
    try setup.cliOn(["ledger", "create", "family"])
    try setup.cliOn(["user", "add", "bo", "--ledger", "family", "--role", "read"])
    let token = try setup.cliOn(["token", "create", "bo-phone", "--user", "bo"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try setup.cliOn(["--ledger", "family", "add", "2026-10-05", "7.50", "family-only bread"])
    #expect(try setup.replica.waitForReplay(), "the replica did not catch up")
    let before = try await setup.reads("caught_up")
    var page = try await ServeInstancesTests.request("GET", setup.base + "/v1/expenses", token: token)
    for _ in 0..<50 where try await setup.reads("caught_up") == before {
      try await Task.sleep(for: .milliseconds(100))
      page = try await ServeInstancesTests.request("GET", setup.base + "/v1/expenses", token: token)
    }
    #expect(try await setup.reads("caught_up") > before, "served by the replica")
    #expect(page.status == 200)
    let items = (try JSONSerialization.jsonObject(with: page.body) as? [String: Any])?["items"] as? [[String: Any]]
    #expect(items?.map { $0["description"] as? String } == ["family-only bread"], "\(page.text)")
  }

  @Test func anUnreachableReplicaAtStartIsWaitedForWhileThePrimaryServes() async throws {
    let cli = try CLI()
    let url = try PostgresServer.shared().makeDatabase()
    let created = try cli.run(["token", "create", "t", "--scope", "read", "--db", url], useDatabase: false)
    let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let nowhere = "postgres://postgres@/\(PostgresServer.databaseName(of: url))?host=\(cli.directory.path)/no-server"
    let server = try LiveServer(cli: cli, db: url, arguments: ["--read-replica", nowhere])
    defer { server.stop() }
    let base = "http://127.0.0.1:\(try server.port())"
    let report = try await ServeInstancesTests.request("GET", base + Self.report(today: "2026-10-20"), token: token)
    #expect(report.status == 200, "\(report.text)")
    #expect(server.stderr().contains("read replica \(nowhere) failed"), "\(server.stderr())")
  }

  @Test func aReplicaURLThatCannotServeIsRefusedAtStart() throws {
    let cli = try CLI()
    let primary = try PostgresServer.shared()
    let url = try primary.makeDatabase()
    let name = PostgresServer.databaseName(of: url)
    let cases: [(arguments: [String], environment: [String: String], code: Int32, message: String)] = [
      (
        ["serve", "--port", "0", "--read-replica", url, "--db", cli.db], [:], 64,
        "--read-replica needs a PostgreSQL database (--db postgres://…): a SQLite file has no replicas"
      ),
      (
        ["serve", "--port", "0", "--read-replica", "replica.example:5432", "--db", url], [:], 64,
        "--read-replica is not a PostgreSQL URL"
      ),
      (
        ["serve", "--port", "0", "--db", url], ["EXPENSES_READ_REPLICA": "mysql://replica/db"], 64,
        "$EXPENSES_READ_REPLICA is not a PostgreSQL URL"
      ),
      (
        ["serve", "--port", "0", "--read-replica", url + "&ledger=other", "--db", url], [:], 64,
        "--read-replica names ledger 'other', but --db serves ledger 'default'"
      ),
      (
        [
          "serve", "--port", "0", "--read-replica",
          "postgres://postgres@/missing_\(name)?host=\(primary.socketDirectory)", "--db", url,
        ], [:], 66, "has no ledger 'default'"
      ),
    ]
    for item in cases {
      let result = try cli.run(item.arguments, useDatabase: false, environment: item.environment)
      #expect(result.code == item.code, "\(item.arguments): \(result.stderr)")
      #expect(result.stderr.contains(item.message), "\(item.arguments): \(result.stderr)")
    }
  }
}

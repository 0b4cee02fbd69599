import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Two real `expenses serve` processes on one PostgreSQL database, as behind a load balancer,
/// and the CLI beside them: every answer is the database's, whichever process gives it
/// (docs/scaling.md). Each test has a database of its own on the test process's server.
@Suite struct ServeInstancesTests {
  /// A database, the CLI on it, a write token and two servers (constants after `init`).
  final class Pair: @unchecked Sendable {
    let cli: CLI
    let url: String
    let token: String
    let a: LiveServer
    let b: LiveServer
    let baseA: String
    let baseB: String

    init() throws {
      cli = try CLI()
      url = try PostgresServer.shared().makeDatabase()
      let created = try cli.run(["token", "create", "pair", "--scope", "write", "--db", url], useDatabase: false)
      #expect(created.code == 0, "\(created.stderr)")
      token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      a = try LiveServer(cli: cli, db: url)
      b = try LiveServer(cli: cli, db: url)
      baseA = "http://127.0.0.1:\(try a.port())"
      baseB = "http://127.0.0.1:\(try b.port())"
    }

    deinit {
      a.stop()
      b.stop()
    }

    /// `expenses ARGS --db URL`, which must succeed.
    @discardableResult
    func cli(_ arguments: [String]) throws -> String {
      let result = try cli.run(arguments + ["--db", url], useDatabase: false)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      return result.stdout
    }
  }

  struct Answer: Sendable {
    var status: Int
    var body: Data
    /// Header names lowercased.
    var headers: [String: String]
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
  }

  /// No cache: every answer is the server's own (a cached 200 must not hide a 304 or a change).
  static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
    return URLSession(configuration: configuration)
  }()

  static func request(
    _ method: String, _ url: String, token: String, body: Data? = nil, headers: [String: String] = [:]
  ) async throws -> Answer {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = 120
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    var headers: [String: String] = [:]
    for (name, value) in http?.allHeaderFields ?? [:] {
      if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
    }
    return Answer(status: http?.statusCode ?? 0, body: data, headers: headers)
  }

  @Test func aWriteOnOneServerIsInTheNextReportOfTheOther() async throws {
    let pair = try Pair()
    try pair.cli(["import", CLI.fixture("demo/bank.csv")])
    let report = "/v1/reports/2026-10?today=2026-10-20"
    let first = try await Self.request("GET", pair.baseB + report, token: pair.token)
    #expect(first.status == 200)
    var etag = try #require(first.header("ETag"))
    for round in 1...12 {
      // Written on one server, read at once on the other (and on the writer), alternately.
      let (writer, reader) = round % 2 == 0 ? (pair.baseA, pair.baseB) : (pair.baseB, pair.baseA)
      let amount = 50_000 + round
      let put = try await Self.request(
        "PUT", writer + "/v1/budgets/Groceries", token: pair.token, body: Data(#"{"amountMinor":\#(amount)}"#.utf8),
        headers: ["Content-Type": "application/json"])
      #expect(put.status == 200, "\(put.text)")
      var next = etag
      for base in [reader, writer] {
        // With the ETag from before the write: 304 would be the old report.
        let read = try await Self.request("GET", base + report, token: pair.token, headers: ["If-None-Match": etag])
        #expect(read.status == 200, "round \(round): a cached answer (304) after a write elsewhere")
        #expect(read.text.contains("\"budgetMinor\" : \(amount)"), "round \(round): stale report")
        next = read.header("ETag") ?? etag
      }
      etag = next
    }
    // A write by the CLI, another process altogether, is in both servers' next answers, which
    // are the CLI's own report byte for byte.
    try pair.cli(["budget", "set", "Dining", "123.45"])
    let printed = try pair.cli(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"])
    #expect(printed.contains("\"budgetMinor\" : 12345"))
    for base in [pair.baseA, pair.baseB] {
      let read = try await Self.request("GET", base + report, token: pair.token)
      #expect(read.text == printed)
    }
  }

  @Test func oneIdempotencyKeySentToBothServersAtOnceImportsOnce() async throws {
    let pair = try Pair()
    for round in 1...2 {
      // Enough rows that one import is still running when the other server gets the key.
      var csv = "date,amount,description\n"
      for row in 0..<20_000 {
        csv +=
          "2025-\(String(format: "%02d", row % 12 + 1))-\(String(format: "%02d", row % 28 + 1)),-\(row % 9000 + 100).25,shop \(round) \(row)\n"
      }
      let body = Data(csv.utf8)
      let key = "statement-\(round)"
      let path = "/v1/imports?file=round\(round).csv"
      let headers = ["Content-Type": "text/csv", "Idempotency-Key": key]
      async let fromA = Self.request("POST", pair.baseA + path, token: pair.token, body: body, headers: headers)
      async let fromB = Self.request("POST", pair.baseB + path, token: pair.token, body: body, headers: headers)
      let answers = try await [fromA, fromB]
      let statuses = answers.map(\.status).sorted()
      #expect(statuses == [201, 409] || statuses == [201, 201], "round \(round): \(answers.map(\.text))")
      let created = answers.filter { $0.status == 201 }.map(\.text)
      #expect(Set(created).count == 1, "a second 201 is the first one's answer replayed: \(created)")
      let summary = try JSONSerialization.jsonObject(with: Data((created.first ?? "").utf8)) as? [String: Any]
      #expect(summary?["new"] as? Int == 20_000, "\(created)")
      // Once done, either server replays the one answer.
      for base in [pair.baseA, pair.baseB] {
        let again = try await Self.request("POST", base + path, token: pair.token, body: body, headers: headers)
        #expect(again.status == 201 && again.text == created.first, "round \(round): \(again.text)")
      }
      let imports = try pair.cli(["imports", "list", "--format", "json"])
      let listed = try JSONSerialization.jsonObject(with: Data(imports.utf8)) as? [[String: Any]] ?? []
      #expect(listed.count == round, "round \(round): one import per key: \(imports)")
      let added = listed.reduce(0) { $0 + ($1["rows"] as? Int ?? 0) }
      #expect(added == 20_000 * round, "nothing doubled: \(imports)")
    }
  }

  @Test func aTokenRevokedByTheCLIIsRefusedByBothServers() async throws {
    let pair = try Pair()
    let gone = try pair.cli(["token", "create", "gone", "--scope", "read"]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    for base in [pair.baseA, pair.baseB] {
      // Both servers have now checked and remembered the token.
      #expect(try await Self.request("GET", base + "/v1/sections", token: gone).status == 200)
      #expect(try await Self.request("GET", base + "/v1/sections", token: gone).status == 200)
    }
    try pair.cli(["token", "revoke", "gone"])
    for base in [pair.baseB, pair.baseA] {
      let refused = try await Self.request("GET", base + "/v1/sections", token: gone)
      #expect(refused.status == 401, "\(base): \(refused.text)")
      #expect(try await Self.request("GET", base + "/v1/sections", token: pair.token).status == 200)
    }
  }

  @Test func anIfMatchRaceAcrossTheServersHasOneWinner() async throws {
    let pair = try Pair()
    for round in 1...10 {
      let current = try await Self.request("GET", pair.baseA + "/v1/sections", token: pair.token)
      let tag = try #require(current.header("ETag"))
      let sections = try JSONSerialization.jsonObject(with: current.body) as? [String: Any]
      let states = (sections?["sections"] as? [[String: Any]] ?? []).reduce(into: [String: Bool]()) {
        $0[$1["id"] as? String ?? ""] = $1["expanded"] as? Bool
      }
      // Each server flips another section, both from the same ETag: only one may win.
      func flip(_ id: String, on base: String) async throws -> Answer {
        let body = Data(#"{"expanded":\#(!(states[id] ?? false))}"#.utf8)
        return try await Self.request(
          "PUT", base + "/v1/sections/\(id)", token: pair.token, body: body,
          headers: ["Content-Type": "application/json", "If-Match": tag])
      }
      async let onA = flip("expenses", on: pair.baseA)
      async let onB = flip("trends", on: pair.baseB)
      let answers = try await [onA, onB]
      #expect(answers.map(\.status).sorted() == [200, 412], "round \(round): \(answers.map(\.text))")
      let now = try await Self.request("GET", pair.baseB + "/v1/sections", token: pair.token)
      let winner = try #require(answers.first { $0.status == 200 })
      #expect(now.header("ETag") == winner.header("ETag"), "the winner's states are the stored ones")
    }
  }
}

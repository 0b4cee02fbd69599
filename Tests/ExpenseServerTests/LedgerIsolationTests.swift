import ExpenseCore
import ExpenseService
import ExpenseStore
import ExpenseStores
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceTestSupport
import TestSupport
import Testing

@testable import ExpenseServer

/// No request made with one ledger's token reads or changes another ledger's data, in either
/// store: a token of `family` walks every endpoint with the ids, the cursor, the
/// Idempotency-Key and the ETags of `default`, and `default` is byte for byte what it was.
@Suite struct LedgerIsolationTests {
  @Test func aForeignTokenReachesNothingOfAnotherLedgerInSQLite() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-isolation-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.walk(path: folder.appendingPathComponent("e.sqlite").path, uploads: folder.path)
  }

  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
  func aForeignTokenReachesNothingOfAnotherLedgerInPostgreSQL() async throws {
    let url = try PostgresServer.shared().makeDatabase()
    try await Self.walk(path: url, uploads: NSTemporaryDirectory())
  }

  /// The same walk through a pool of one connection that every ledger's store shares
  /// (`serve --pool-size 1`): each request's lease narrows the one session to its ledger, so
  /// the connection `default` used a moment before shows `family` nothing of it.
  @Test(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
  func aForeignTokenReachesNothingOfAnotherLedgerThroughOneSharedConnection() async throws {
    let url = try PostgresServer.shared().makeDatabase()
    try await Self.walk(path: url, uploads: NSTemporaryDirectory(), stores: Stores(poolSize: 1))
  }

  static let ownerToken = TokenHasher.newToken()
  static let familyToken = TokenHasher.newToken()
  static let familyReader = TokenHasher.newToken()

  /// Two ledgers with data, then the walk.
  static func walk(path: String, uploads: String, stores: Stores = Stores()) async throws {
    let main = try ExpenseService.open(path: path, access: .write)
    try main.createLedger("family")
    try main.addMember(user: "bo", ledger: "family", role: .write)
    try main.addMember(user: "cy", ledger: "family", role: .read)
    try main.createToken(name: "owner", scope: .write, expiresInDays: nil, hash: TokenHasher.hash(ownerToken))
    try main.createToken(
      name: "bo-phone", scope: .write, expiresInDays: nil, hash: TokenHasher.hash(familyToken), user: "bo",
      ledger: "family")
    // A write token of a user whose role is read: it may only read.
    try main.createToken(
      name: "cy-phone", scope: .write, expiresInDays: nil, hash: TokenHasher.hash(familyReader), user: "cy",
      ledger: "family")
    let backend = try ServiceBackend(path: path, stores: stores, readerCount: 1, clock: ServerHarness.clock)
    let router = try ExpenseServerApp.router(
      backend: backend, options: .init(uploadDirectory: uploads), clock: ServerHarness.clock)
    let app = Application(router: router, logger: Logger(label: "isolation"))
    try await app.test(.router) { client in
      let owner = Caller(client: client, token: ownerToken)
      let family = Caller(client: client, token: familyToken)
      // The default ledger: expenses 1-7 from three imports, a budget, two rules, a kind.
      for (index, (rows, start)) in [(3, 0), (2, 3), (2, 5)].enumerated() {
        let reply = try await owner.call(.post, "/v1/imports?file=alpha\(index).csv", csv: csv("Alpha", rows, start))
        #expect(reply.status == 201, "\(reply.text)")
      }
      try await owner.expect(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":50000}"#, 200)
      try await owner.expect(.put, "/v1/budgets/Fun", json: #"{"amountMinor":5000}"#, 200)
      try await owner.expect(
        .post, "/v1/budgets/moves", json: #"{"amountMinor":1000,"from":"Fun","to":"Groceries","month":"2026-10"}"#, 201)
      try await owner.expect(
        .post, "/v1/goals", json: #"{"name":"Car","targetMinor":100000,"by":"2027-12","category":"Fun"}"#, 201)
      try await owner.expect(.put, "/v1/rules/1", json: #"{"pattern":"Alpha","category":"Groceries"}"#, 200)
      try await owner.expect(.put, "/v1/rules/2", json: #"{"pattern":"Beta","category":"Fun"}"#, 200)
      try await owner.expect(.put, "/v1/categories/Rent", json: #"{"kind":"income"}"#, 200)
      try await owner.expect(.put, "/v1/sections/expenses", json: #"{"expanded":true}"#, 200)
      // A recurring series (three monthly payments), listed so it has its id 1.
      let stream =
        "Date,Description,Amount\n2026-08-05,Alpha Stream,-9.99\n2026-09-05,Alpha Stream,-9.99\n"
        + "2026-10-05,Alpha Stream,-9.99\n"
      #expect(try await owner.call(.post, "/v1/imports?file=alpha-stream.csv", csv: stream).status == 201)
      try await owner.expect(.post, "/v1/tags/alpha-trip/expenses", json: #"{"ids":[3,5]}"#, 200)
      try await owner.expect(
        .put, "/v1/tags/alpha-trip/budget", json: #"{"amountMinor":5000,"from":"2026-10-01","to":"2026-10-31"}"#, 200)
      let series = try await owner.call(.get, "/v1/recurring")
      #expect(series.status == 200 && series.text.contains("Alpha Stream"), "\(series.text)")
      // The family ledger: one import of one row (plus the September row).
      let first = try await family.call(.post, "/v1/imports?file=bravo.csv", csv: csv("Bravo", 1, 0, rent: false))
      #expect(first.status == 201, "\(first.text)")
      // An Idempotency-Key the default ledger has used.
      let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "shared-key"]
      let keyed = csv("Alpha", 1, 9)
      let ownerFirst = try await owner.call(.post, "/v1/imports?file=alpha-k.csv", headers: key, csv: keyed)
      #expect(ownerFirst.status == 201)

      let before = try await owner.snapshot()
      let ownerPage = try await owner.call(.get, "/v1/expenses?limit=2")
      let cursor = ownerPage.json["nextCursor"]?.string ?? ""
      #expect(!cursor.isEmpty)
      let report = try await owner.call(.get, "/v1/reports/2026-10")
      let reportTag = report.headers[.eTag] ?? ""
      let sectionsTag = try await owner.call(.get, "/v1/sections").headers[.eTag] ?? ""

      // Ids of the default ledger that the family ledger does not have.
      for id in [3, 5, 7] {
        try await family.expect(.get, "/v1/expenses/\(id)", 404)
        try await family.expect(.patch, "/v1/expenses/\(id)", json: #"{"description":"x"}"#, 404)
        try await family.expect(.delete, "/v1/expenses/\(id)", 404)
      }
      // Import ids: the default ledger's (per ledger in SQLite, one sequence in PostgreSQL).
      let ownImports = Set(
        try await family.call(.get, "/v1/imports").json["imports"]?.array?.compactMap { $0["id"]?.integer } ?? [])
      let foreignImport = try #require(
        try await owner.call(.get, "/v1/imports").json["imports"]?.array?.compactMap { $0["id"]?.integer }
          .first { !ownImports.contains($0) })
      try await family.expect(.delete, "/v1/imports/\(foreignImport)", 404)
      try await family.expect(.get, "/v1/rules/2", 404)
      try await family.expect(.delete, "/v1/rules/2", 404)
      try await family.expect(.get, "/v1/budgets/Groceries", 404)
      try await family.expect(.delete, "/v1/budgets/Groceries", 404)
      try await family.expect(.delete, "/v1/budgets/moves/1", 404)
      try await family.expect(.delete, "/v1/goals/1", 404)
      try await family.expect(.get, "/v1/categories/Rent", 404)
      try await family.expect(.delete, "/v1/categories/Rent", 404)
      // Change numbers only the default ledger's history holds: never undone from the family's.
      for id in [6, 7, 8] { try await family.expect(.post, "/v1/history/\(id)/undo", 404) }
      try await family.expect(.post, "/v1/recurring/1/confirm", 404)
      try await family.expect(.post, "/v1/recurring/1/ignore", 404)
      // The default ledger's tag and rows: unknown here, and its rows cannot be tagged from here.
      try await family.expect(.delete, "/v1/tags/alpha-trip/expenses/3", 404)
      try await family.expect(.delete, "/v1/tags/alpha-trip", 404)
      try await family.expect(.post, "/v1/tags/alpha-trip/expenses", json: #"{"ids":[3]}"#, 404)
      try await family.expect(.get, "/v1/expenses?tag=alpha-trip", 404)
      // The other ledger's cursor: an answer from the family's own rows, or a refusal.
      let paged = try await family.call(.get, "/v1/expenses?cursor=\(cursor)")
      #expect(paged.status == 200 || paged.status == 400)
      #expect(!paged.text.contains("Alpha"), "\(paged.text)")
      // The same Idempotency-Key: the family's own import, never the default ledger's answer.
      let familyFirst = try await family.call(
        .post, "/v1/imports?file=bravo-k.csv", headers: key, csv: csv("Bravo", 1, 9, rent: false))
      #expect(familyFirst.status == 201)
      #expect(familyFirst.text.contains("bravo-k.csv") && !familyFirst.text.contains("alpha"), "\(familyFirst.text)")
      // The default ledger's ETags: the family's report is its own (200, not 304), and its
      // sections refuse the other states' tag.
      let familyReport = try await family.call(.get, "/v1/reports/2026-10", headers: [.ifNoneMatch: reportTag])
      #expect(familyReport.status == 200)
      #expect(familyReport.text.contains("Bravo") && !familyReport.text.contains("Alpha"))
      try await family.expect(
        .put, "/v1/sections/expenses", headers: [.ifMatch: sectionsTag], json: #"{"expanded":false}"#, 412)
      // Every list answers with the family's own data only.
      for list in [
        "/v1/expenses", "/v1/imports", "/v1/budgets", "/v1/categories", "/v1/rules", "/v1/changes", "/v1/goals",
        "/v1/accounts", "/v1/history", "/v1/recurring", "/v1/recurring?all=true", "/v1/tags",
      ] {
        let reply = try await family.call(.get, list)
        #expect(reply.status == 200, "\(list)")
        #expect(!reply.text.contains("Alpha") && !reply.text.contains("alpha"), "\(list): \(reply.text)")
      }
      // A write token of a reader: refused writes, whatever the ids.
      let reader = Caller(client: client, token: familyReader)
      try await reader.expect(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":1}"#, 403)
      try await reader.expect(.delete, "/v1/imports/1", 403)
      try await reader.expect(.delete, "/v1/budgets/moves/1", 403)
      try await reader.expect(.delete, "/v1/goals/1", 403)
      try await reader.expect(.post, "/v1/history/1/undo", 403)
      try await reader.expect(.post, "/v1/recurring/1/confirm", 403)
      try await reader.expect(.get, "/v1/recurring", 200)
      try await reader.expect(.post, "/v1/tags/bravo/expenses", json: #"{"ids":[1]}"#, 403)
      try await reader.expect(.get, "/v1/tags", 200)
      try await reader.expect(.get, "/v1/expenses/1", 200)
      try await reader.expect(.get, "/v1/history", 200)

      let after = try await owner.snapshot()
      #expect(after == before, "the default ledger is what it was")
      // The key still answers the default ledger's first request with its own stored answer.
      let replay = try await owner.call(.post, "/v1/imports?file=alpha-k.csv", headers: key, csv: keyed)
      #expect(replay.status == ownerFirst.status && replay.text == ownerFirst.text)
    }
  }

  /// A statement of `rows` rows named `name` in October 2026 (and a September rent).
  static func csv(_ name: String, _ rows: Int, _ start: Int, rent: Bool = true) -> String {
    var lines = ["Date,Description,Amount,Category"]
    if rent && start == 0 { lines.append("2026-09-30,Rent,-1200.00,Rent") }
    for index in start..<(start + rows) {
      lines.append("2026-10-1\(index % 10),\(name) shop \(index),-\(index + 1).25,Groceries")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Requests with one bearer token, each answer checked against the OpenAPI document.
  struct Caller {
    let client: any TestClientProtocol
    let token: String

    func call(
      _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], json: String? = nil, csv: String? = nil
    )
      async throws -> ServerHarness.Reply
    {
      var headers = headers
      headers[.authorization] = "Bearer \(token)"
      var body: ByteBuffer?
      if let json {
        headers[.contentType] = "application/json"
        body = ByteBuffer(string: json)
      }
      if let csv {
        headers[.contentType] = "text/csv"
        body = ByteBuffer(string: csv)
      }
      let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
      let reply = ServerHarness.Reply(
        status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
      let problems = try OpenAPIContract.check(
        path: try ServerHarness.Client.template(for: uri), method: method.rawValue, status: reply.status,
        contentType: response.headers[.contentType], body: reply.body)
      #expect(problems.isEmpty, "\(method) \(uri): \(problems.joined(separator: "\n"))")
      return reply
    }

    func expect(
      _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], json: String? = nil, _ status: Int,
      sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
      let reply = try await call(method, uri, headers: headers, json: json)
      #expect(reply.status == status, "\(method) \(uri): \(reply.text)", sourceLocation: sourceLocation)
    }

    /// What every read endpoint answers.
    func snapshot() async throws -> [String: String] {
      var answers: [String: String] = [:]
      for uri in [
        "/v1/expenses?limit=500", "/v1/imports", "/v1/budgets", "/v1/categories", "/v1/rules", "/v1/sections",
        "/v1/goals", "/v1/accounts", "/v1/history", "/v1/recurring?all=true", "/v1/tags",
        "/v1/expenses?tag=alpha-trip", "/v1/expenses/3", "/v1/rules/2", "/v1/budgets/Groceries", "/v1/categories/Rent",
      ] {
        answers[uri] = try await call(.get, uri).text
      }
      return answers
    }
  }
}

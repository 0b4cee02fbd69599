import ExpenseCore
import ExpenseMemory
import ExpenseSQLite
import ExpenseService
import ExpenseStore
import ExpenseStores
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ExpenseServer

/// One test's server: a fresh database in its own temporary folder (removed when the test is
/// done), or a store in memory (`Storage.memory`: a handler test that needs no disk), a write
/// and a read token, a pinned clock, and the application under test driven through
/// HummingbirdTesting. Every answer is checked against the OpenAPI document.
final class ServerHarness: @unchecked Sendable {
  /// What the server under test stores in.
  enum Storage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// A SQLite file, opened as `serve` opens it (a writer and two read-only connections).
    case sqliteFile
    /// A `MemoryStore`: one service answers every request, nothing touches the disk.
    case memory

    var testDescription: String { rawValue }
  }

  static let today = CivilDate(year: 2026, month: 10, day: 20)!
  static let now = Date(timeIntervalSince1970: 1_792_497_600)  // 2026-10-20T12:00:00Z

  let directory: URL
  /// The server's store, as another connection (a SQLite file) or the store itself (memory).
  let database: any LedgerStore
  let backend: SQLiteBackend
  let writeToken = TokenHasher.newToken()
  let readToken = TokenHasher.newToken()
  let uploadLimit: Int?
  let clock: ServerClock

  var path: String { directory.appendingPathComponent("test.sqlite").path }

  init(storage: Storage = .sqliteFile, uploadLimit: Int? = nil, clock: ServerClock = ServerHarness.clock) throws {
    self.clock = clock
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.uploadLimit = uploadLimit
    let path = directory.appendingPathComponent("test.sqlite").path
    database = storage == .memory ? MemoryStore() : try AppDatabase(path: path)
    let created = ImportRecord.timestamp(ServerHarness.now)
    try database.createToken(
      APIToken(name: "writer", scope: .write, createdAt: created), hash: TokenHasher.hash(writeToken))
    try database.createToken(
      APIToken(name: "reader", scope: .read, createdAt: created), hash: TokenHasher.hash(readToken))
    switch storage {
    case .sqliteFile: backend = try SQLiteBackend(path: path, stores: Stores(), readerCount: 2, clock: clock)
    case .memory:
      let service = ExpenseService(store: database, clock: clock)
      backend = ServiceBackend(writer: service, readers: [service], watcher: service)
    }
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  static let clock = ServerClock(now: { ServerHarness.now }, today: { ServerHarness.today })

  /// Runs `body` against the application (in-process router, no socket); `logger` receives
  /// the application's log.
  func run(
    logger: Logger? = nil, allowedHosts: [String] = [], _ body: @Sendable (Client) async throws -> Void
  ) async throws {
    let options = ExpenseServerApp.Options(
      uploadDirectory: directory.path, uploadLimit: uploadLimit, allowedHosts: allowedHosts)
    let router = try ExpenseServerApp.router(backend: backend, options: options, clock: clock)
    let app = Application(router: router, logger: logger ?? Logger(label: "expenses-test"))
    try await app.test(.router) { client in try await body(Client(client: client, harness: self)) }
  }

  /// Sends requests and checks every answer against the document.
  struct Client: Sendable {
    let client: any TestClientProtocol
    let harness: ServerHarness

    enum Auth { case write, read, none, raw(String) }

    @discardableResult
    func call(
      _ method: HTTPRequest.Method, _ uri: String, auth: Auth = .write, headers: HTTPFields = [:], json: String? = nil,
      csv: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
      var headers = headers
      switch auth {
      case .write: headers[.authorization] = "Bearer \(harness.writeToken)"
      case .read: headers[.authorization] = "Bearer \(harness.readToken)"
      case .none: break
      case .raw(let value): headers[.authorization] = value
      }
      var body: ByteBuffer?
      if let json {
        if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        body = ByteBuffer(string: json)
      }
      if let csv {
        if headers[.contentType] == nil { headers[.contentType] = "text/csv" }
        body = ByteBuffer(string: csv)
      }
      let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
      let reply = Reply(
        status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
      let problems = try OpenAPIContract.check(
        path: try Client.template(for: uri), method: method.rawValue, status: reply.status,
        contentType: response.headers[.contentType], body: reply.body)
      #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
      return reply
    }

    /// The document's path template for a request path (literal segments win over `{x}`).
    static func template(for uri: String) throws -> String {
      let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
      let segments = path.split(separator: "/", omittingEmptySubsequences: false)
      let templates = try OpenAPIContract.document.get()["paths"]?.object?.keys.sorted() ?? []
      let candidates = templates.filter { template in
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == segments.count
          && zip(parts, segments).allSatisfy { part, segment in part.hasPrefix("{") || part == segment }
      }
      return candidates.min { $0.filter { $0 == "{" }.count < $1.filter { $0 == "{" }.count } ?? path
    }
  }

  struct Reply {
    var status: Int
    var headers: HTTPFields
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: body)) ?? .null }
  }

  /// A small bank export: `rows` expenses in October 2026 (and one in September).
  static func csv(rows: Int, start: Int = 0) -> String {
    var lines = ["Date,Description,Amount,Category", "2026-09-30,Rent,-1200.00,Rent"]
    for index in start..<(start + rows) {
      let day = 1 + index % 20
      lines.append("2026-10-\(day < 10 ? "0" : "")\(day),Shop \(index),-\(index + 1).25,Groceries")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

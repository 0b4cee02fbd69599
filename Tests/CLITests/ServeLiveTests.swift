import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real `expenses serve` binary on a free loopback port: the demo file imported over HTTP,
/// a budget set, and the report read back equal to `expenses report --format json` on the same
/// database; then SIGTERM stops it cleanly.
@Suite struct ServeLiveTests {
  @Test func servedReportEqualsTheCLIsAfterAnImportOverHTTP() async throws {
    let cli = try CLI()
    let created = try cli.run(["token", "create", "live", "--scope", "write"])
    #expect(created.code == 0, "\(created.stderr)")
    let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.hasPrefix("exp_") && !token.contains("\n"))

    let server = try LiveServer(cli: cli)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(try server.port())"

    let csv = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("demo/bank.csv")))
    let (imported, importStatus) = try await request(
      "POST", base + "/v1/imports?file=bank.csv", token: token, body: csv, type: "text/csv")
    #expect(importStatus == 201, "\(String(decoding: imported, as: UTF8.self))")
    let summary = try JSONSerialization.jsonObject(with: imported) as? [String: Any]
    #expect((summary?["new"] as? Int ?? 0) > 100)

    let (_, budgetStatus) = try await request(
      "PUT", base + "/v1/budgets/Groceries", token: token, body: Data(#"{"amountMinor":70000}"#.utf8),
      type: "application/json")
    #expect(budgetStatus == 200)

    let (served, reportStatus) = try await request(
      "GET", base + "/v1/reports/2026-10?today=2026-10-20", token: token, body: nil, type: nil)
    #expect(reportStatus == 200)
    let printed = try cli.run(["report", "--month", "2026-10", "--today", "2026-10-20", "--format", "json"])
    #expect(printed.code == 0)
    #expect(String(decoding: served, as: UTF8.self) == printed.stdout)
    #expect(printed.stdout.contains("\"budgetMinor\" : 70000"))

    let (_, unauthorized) = try await request("GET", base + "/v1/sections", token: nil, body: nil, type: nil)
    #expect(unauthorized == 401)

    let code = server.terminate()
    #expect(code == 0, "serve exited \(code): \(server.stderr())")
    let log = server.stderr()
    #expect(log.contains("POST /v1/imports 201"), "\(log)")
    #expect(log.contains("hb.request.id="))
    #expect(log.contains("token=live"), "the log line names the token")
  }

  func request(_ method: String, _ url: String, token: String?, body: Data?, type: String?) async throws -> (Data, Int)
  {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
    let (data, response) = try await URLSession.shared.data(for: request)
    return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
  }
}

/// `expenses serve --port 0` as a child process; its stderr is collected on a thread.
final class LiveServer: @unchecked Sendable {
  let process = Process()
  private let lock = NSLock()
  private var collected = Data()

  /// `arguments` go after `serve --port 0 --db DB` (`db`: the CLI's file unless given, such as
  /// a `postgres://` URL).
  init(cli: CLI, db: String? = nil, arguments: [String] = []) throws {
    process.executableURL = CLI.binary
    process.arguments = ["serve", "--port", "0", "--db", db ?? cli.db] + arguments
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": cli.directory.path, "LANG": "C.UTF-8"]
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let handle = pipe.fileHandleForReading
    Thread.detachNewThread { [self] in
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        lock.lock()
        collected.append(data)
        lock.unlock()
      }
    }
  }

  func stderr() -> String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: collected, as: UTF8.self)
  }

  /// The port from "serving on http://HOST:PORT", waiting up to 20 s.
  func port() throws -> Int {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let text = stderr()
      if let range = text.range(of: "serving on http://") {
        let rest = text[range.upperBound...].prefix { $0 != "\n" }
        if let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) { return port }
      }
      if !process.isRunning { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw LiveServerError(message: "serve did not start: \(stderr())")
  }

  /// SIGTERM, then the exit code (waits up to 10 s; SIGKILL after).
  func terminate() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  func stop() { if process.isRunning { _ = terminate() } }

  struct LiveServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
}

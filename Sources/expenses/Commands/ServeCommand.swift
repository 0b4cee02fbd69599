import ArgumentParser
import ExpenseServer
import Foundation
import Logging

/// `expenses serve`: the HTTP JSON API over the same database (docs/http-api.md).
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the HTTP JSON API (see README 'HTTP API'; tokens from 'expenses token create').",
    discussion: """
      Listens on 127.0.0.1:8080 unless told otherwise; SIGTERM or SIGINT lets requests in flight
      finish, then stops. One log line per request on stderr, with its request id.

      Examples:
        expenses serve
        expenses serve --port 9000
        curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/v1/reports/2026-10
      """)

  @OptionGroup var database: DatabaseOptions
  @Option(help: "Address to listen on (a non-loopback address exposes your budget to the network).")
  var host = "127.0.0.1"
  @Option(help: "TCP port (0: any free port, printed on stderr).") var port = 8080
  @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0-65535") }
    guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
  }

  func run() throws {
    let path = database.resolvedPath
    let backend = try SQLiteBackend(path: path, wait: database.wait)
    var logger = Logger(label: "expenses") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    let directory = (path as NSString).deletingLastPathComponent
    let options = ExpenseServerApp.Options(host: host, port: port, uploadDirectory: directory.isEmpty ? "." : directory)
    let app = try ExpenseServerApp.application(
      backend: backend, options: options, logger: logger,
      onServerRunning: { port in
        FileHandle.standardError.write(Data("expenses: serving on http://\(options.host):\(port)\n".utf8))
      })
    // The commands are synchronous; the server runs on the concurrency pool until a signal
    // ends it, and this thread waits.
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
      do { try await app.runService() } catch { failure.error = error }
      done.signal()
    }
    done.wait()
    if let error = failure.error { throw error }
  }
}

/// Hands the server's error from its task to the waiting thread (written before the signal,
/// read after the wait).
final class FailureBox: @unchecked Sendable {
  var error: (any Error)?
}

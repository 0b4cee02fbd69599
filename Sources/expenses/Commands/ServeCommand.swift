import ArgumentParser
import ExpenseServer
import ExpenseService
import ExpenseStores
import Foundation
import Logging

/// `expenses serve`: the HTTP JSON API over the same database (docs/http-api.md).
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the HTTP JSON API and the report page (tokens from 'expenses token create').",
    discussion: """
      Answers for every ledger of the database: each token acts on its own ledger, for its user. \
      Listens on 127.0.0.1:8080 unless told otherwise; SIGTERM or SIGINT lets requests in flight
      finish, then stops. One log line per request on stderr, with its request id.
      On a loopback address only requests whose Host is localhost, 127.x.x.x or [::1] with the
      server's port (or a name given with --allowed-host) are answered; others get 421.
      The database must exist (66 otherwise) unless --create is given.

      Examples:
        expenses serve
        expenses serve --port 9000
        expenses serve --db postgres://app@db1/ledgers --read-replica postgres://app@db2/ledgers
        curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/v1/reports/2026-10
      """)

  @OptionGroup var database: DatabaseOptions
  @Option(help: "Address to listen on (a non-loopback address exposes your budget to the network).")
  var host = "127.0.0.1"
  @Option(help: "TCP port (0: any free port, printed on stderr).") var port = 8080
  @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"
  @Option(
    name: .customLong("allowed-host"),
    help: ArgumentHelp(
      "A Host name answered besides localhost and loopback addresses (repeatable; e.g. a reverse proxy's name).",
      valueName: "name"))
  var allowedHosts: [String] = []
  @Option(help: ArgumentHelp("Seconds a connection may stay idle before it is closed.", valueName: "seconds"))
  var idleTimeout = ExpenseServerApp.Options.defaultIdleTimeout
  @Option(help: ArgumentHelp("Seconds a new connection has to send its request headers.", valueName: "seconds"))
  var headerTimeout = ExpenseServerApp.Options.defaultHeaderTimeout
  @Option(help: "Connections served at once; more wait until one closes.")
  var maxConnections = ExpenseServerApp.Options.defaultMaxConnections
  @Option(
    help: ArgumentHelp(
      "Ledgers besides 'default' kept open while idle (a SQLite ledger's file and connections; on PostgreSQL only their caches); the least recently used beyond it are closed (default: 16 for SQLite, 10000 for PostgreSQL).",
      valueName: "count"))
  var openLedgers: Int?
  @Option(
    help: ArgumentHelp(
      "Connections to a PostgreSQL --db that all ledgers share; a request waits for one while all are busy.",
      valueName: "count"))
  var poolSize = ServiceBackend.defaultPoolSize
  @Flag(help: "Create the database when it does not exist (without it a missing --db exits 66).")
  var create = false
  @Option(
    name: .customLong("read-replica"),
    help: ArgumentHelp(
      "A streaming replica of the PostgreSQL --db that serves reports and listings once it has caught up (default: $EXPENSES_READ_REPLICA).",
      valueName: "url"))
  var readReplica: String?

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0-65535") }
    guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
    for (name, value) in [("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout)] {
      guard value.isFinite, value > 0, value <= 86_400 else {
        throw ValidationError("\(name) must be more than 0 and at most 86400 seconds")
      }
    }
    guard (1...1_000_000).contains(maxConnections) else {
      throw ValidationError("--max-connections must be 1-1000000")
    }
    if let openLedgers, !(1...100_000).contains(openLedgers) {
      throw ValidationError("--open-ledgers must be 1-100000")
    }
    guard (1...10_000).contains(poolSize) else { throw ValidationError("--pool-size must be 1-10000") }
    if let problem = ServeAddress.problem(with: host) { throw ValidationError(problem) }
    if database.ledger != nil || GlobalArguments.leadingLedger != nil {
      throw ValidationError(
        "serve answers for every ledger of the database (each token acts on its own); drop --ledger")
    }
  }

  func run() throws {
    let path = database.resolvedPath
    let server = ExpenseService.isServerURL(path)
    let replica = replicaSource()
    if let replica, !server { throw ReplicaError.primaryNotPostgres(option: replica.option) }
    if !server && !create && !FileManager.default.fileExists(atPath: path) {
      throw CLIFailure(
        message:
          "no database at \(path)\n  hint: check --db or $EXPENSES_DB; to start serving an empty one, add --create",
        kind: .noDatabase)
    }
    var logger = Logger(label: "expenses") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    // On PostgreSQL an idle ledger holds no connection of the primary's (they are the pool's),
    // but two of the replica's: the replica keeps the bound of connections.
    let backend = try ServeCommand.backend(
      path: path, wait: database.wait,
      openLedgers: openLedgers
        ?? (server ? ServiceBackend.defaultPooledOpenLedgers : ServiceBackend.defaultOpenLedgers),
      replicaOpenLedgers: openLedgers ?? ServiceBackend.defaultOpenLedgers,
      poolSize: poolSize, replica: replica, logger: logger)
    // Uploads are staged beside a SQLite file (one file system, so a rename); a server's
    // database has no folder here.
    let directory = server ? NSTemporaryDirectory() : (path as NSString).deletingLastPathComponent
    let options = ExpenseServerApp.Options(
      host: host, port: port, uploadDirectory: directory.isEmpty ? "." : directory, allowedHosts: allowedHosts,
      idleTimeout: idleTimeout, headerTimeout: headerTimeout, maxConnections: maxConnections)
    if !ServeAddress.isLoopback(host) {
      let reach =
        ServeAddress.isWildcard(host)
        ? "listening on every interface (\(host)): anyone who can reach this machine can reach the API"
        : "listening on \(host), reachable from the network"
      FileHandle.standardError.write(
        Data(
          ("expenses: warning: \(reach); the server speaks plain HTTP, so tokens and data cross the network"
            + " unencrypted: put TLS in front (a reverse proxy)\n").utf8))
    }
    let app = try ExpenseServerApp.application(
      backend: backend, options: options, logger: logger,
      onServerRunning: { port in
        FileHandle.standardError.write(
          Data("expenses: serving on \(ServeAddress.url(host: options.host, port: port))\n".utf8))
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
    if let error = failure.error { throw ServeCommand.listenFailure(error, host: host, port: port) ?? error }
  }

  /// The replica's URL and where it came from (the flag, else the environment), if any.
  func replicaSource() -> (url: String, option: String)? {
    if let readReplica { return (readReplica, "--read-replica") }
    let value = ProcessInfo.processInfo.environment["EXPENSES_READ_REPLICA"] ?? ""
    return value.isEmpty ? nil : (value, "$EXPENSES_READ_REPLICA")
  }

  /// The database's backend, reading from `replica` when one is given (docs/scaling.md).
  static func backend(
    path: String, wait: Double, openLedgers: Int, replicaOpenLedgers: Int, poolSize: Int,
    replica: (url: String, option: String)?, logger: Logger
  ) throws -> any ExpenseBackend {
    let primary = try ServiceBackend(
      path: path, stores: Stores(poolSize: poolSize), wait: wait, openLedgers: openLedgers)
    guard let replica else { return primary }
    return try ReplicaBackend(
      primary: primary, replica: replica.url, option: replica.option, openLedgers: replicaOpenLedgers, logger: logger)
  }

  /// A failure to listen, as a message and a sysexits code instead of NIO's raw error.
  static func listenFailure(_ error: any Error, host: String, port: Int) -> CLIFailure? {
    guard let code = ServeAddress.systemErrorCode(of: error) else { return nil }
    let address = ServeAddress.url(host: host, port: port)
    switch code {
    case EADDRINUSE:
      return CLIFailure(
        message: "cannot listen on \(address): the port is in use (another server?)\n"
          + "  hint: stop the other server or choose another --port (0 picks a free one)",
        kind: .unavailable)
    case EADDRNOTAVAIL:
      return CLIFailure(
        message: "cannot listen on \(address): \(host) is not an address of this machine\n"
          + "  hint: use 127.0.0.1 (this machine only) or one of this machine's addresses with --host",
        kind: .usage)
    case EACCES:
      return CLIFailure(
        message: "cannot listen on \(address): permission denied (ports below 1024 need privileges)\n"
          + "  hint: choose a --port of 1024 or more",
        kind: .unavailable)
    default:
      return CLIFailure(
        message: "cannot listen on \(address): \(String(cString: strerror(code)))", kind: .unavailable)
    }
  }
}

/// Hands the server's error from its task to the waiting thread (written before the signal,
/// read after the wait).
final class FailureBox: @unchecked Sendable {
  var error: (any Error)?
}

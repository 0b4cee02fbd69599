import ExpenseStore
import Foundation
import PostgresNIO

/// One connection to PostgreSQL used synchronously: every query blocks the calling thread on
/// postgres-nio's `EventLoopFuture` until the server answers.
///
/// Why blocking, and why on futures: `LedgerStore` is synchronous (the CLI is, and the server
/// already calls the store on its own blocking queues, never on an event loop). Waiting on a
/// future parks only the caller while NIO's own event loop thread does the I/O. Bridging the
/// async API with a `Task` and a semaphore instead would need a thread of Swift's cooperative
/// pool to finish the task, which the blocked caller may itself be holding (a test, a server
/// handler): with two cores that deadlocks. The one async-only call the store needs,
/// postgres-nio's `copyFrom` (the import's rows), therefore runs as a task whose executor is
/// the connection's event loop (`startCopy(into:columns:data:)`), never the cooperative pool.
///
/// Not thread-safe on its own: `PostgresStore` serializes its use with a lock.
final class BlockingConnection {
  let connection: PostgresConnection
  let location: PostgresLocation
  private let logger: Logger
  /// What the session says (its ledger, read-only or not), as a pool last set it; nil when
  /// unknown. Read and written only by the connection's holder.
  var session: Session? = .fresh

  /// Whether the server (or a failure) has ended the connection.
  var isClosed: Bool { connection.isClosed }

  /// Connects (and authenticates); errors name the store without its password.
  init(_ location: PostgresLocation) throws(StoreError) {
    self.location = location
    var logger = Logger(label: "expenses.postgres")
    logger.logLevel = .critical  // queries and their values are never logged
    self.logger = logger
    let configuration: PostgresConnection.Configuration
    if let socket = location.socketPath {
      configuration = .init(
        unixSocketPath: socket, username: location.user, password: location.password, database: location.database)
    } else {
      configuration = .init(
        host: location.host ?? "localhost", port: location.port, username: location.user,
        password: location.password, database: location.database, tls: .disable)
    }
    do {
      connection = try PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger
      ).wait()
    } catch {
      throw PostgresErrors.opening(error, location: location)
    }
  }

  deinit { try? connection.close().wait() }

  /// Runs one statement and collects its rows.
  @discardableResult
  func query(_ query: PostgresQuery) throws(StoreError) -> PostgresQueryResult {
    // postgres-nio 1.33.2 writes a query to a closed channel and never completes its future:
    // without this check, a connection the server (or a failover) ended would hang its caller
    // for good instead of failing. (A close during the query itself fails the query.)
    guard !connection.isClosed else {
      throw StoreError.io(path: location.redacted, detail: "the connection to the server is closed")
    }
    do {
      return try connection.query(query, logger: logger).wait()
    } catch {
      throw PostgresErrors.map(error, location: location)
    }
  }

  /// Starts `COPY table (columns) FROM STDIN` (text format) with `data`, its rows already
  /// escaped, one buffer after another; `wait(for:)` its end before any other statement.
  /// postgres-nio's `copyFrom` is async only: it runs as a task on the connection's event loop
  /// (`EventLoopTaskExecutor`), so the caller may go on with other work meanwhile (the import
  /// writer gathers its next rows) and then block on the future, as for every statement.
  func startCopy(into table: String, columns: [String], data: [ByteBuffer]) -> EventLoopFuture<Void> {
    let promise = connection.eventLoop.makePromise(of: Void.self)
    guard !connection.isClosed else {
      promise.fail(StoreError.io(path: location.redacted, detail: "the connection to the server is closed"))
      return promise.futureResult
    }
    Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) { [connection, logger] in
      do {
        try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
          for buffer in data { try await writer.write(buffer) }
        }
        promise.succeed()
      } catch {
        promise.fail(error)
      }
    }
    return promise.futureResult
  }

  /// Blocks until a started `COPY` ends; its error as a `StoreError`.
  func wait(for copy: EventLoopFuture<Void>) throws(StoreError) {
    do {
      try copy.wait()
    } catch {
      throw PostgresErrors.map(error, location: location)
    }
  }

  /// Runs one statement that takes no parameters (DDL, `BEGIN`); the extended protocol runs
  /// one statement per call.
  func execute(_ sql: String) throws(StoreError) {
    try query(PostgresQuery(unsafeSQL: sql))
  }
}

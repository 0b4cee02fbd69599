import ExpenseCore
import Foundation
import GRDB

/// The one door to the SQLite database: opens it, migrates it, and offers intention-named
/// reads and writes (each write one transaction), like GRDB's demo apps.
///
/// Why a `DatabaseQueue` and not a pool: the CLI is one short-lived process doing one thing;
/// WAL is still on so a report can run while another process imports.
public final class AppDatabase: Sendable {
  /// The schema version this build writes and reads (SQLite `user_version`).
  public static let schemaVersion = 3

  let writer: DatabaseQueue
  /// The path, or `:memory:` for an in-memory database.
  public let path: String

  /// Opens (creating with mode 0600 if needed) the database at `path` and migrates it.
  public init(path: String) throws(StoreError) {
    self.path = path
    do {
      try AppDatabase.createPrivateFile(at: path)
      writer = try DatabaseQueue(path: path, configuration: AppDatabase.configuration())
    } catch let error as StoreError {
      throw error
    } catch {
      throw .cannotOpen(path: path, reason: AppDatabase.reason(error))
    }
    try migrate()
  }

  /// An empty in-memory database with the full schema, for tests.
  public init() throws(StoreError) {
    path = ":memory:"
    do {
      writer = try DatabaseQueue(configuration: AppDatabase.configuration())
    } catch {
      throw .cannotOpen(path: path, reason: AppDatabase.reason(error))
    }
    try migrate()
  }

  static func configuration() -> Configuration {
    var config = Configuration()
    config.foreignKeysEnabled = true
    config.busyMode = .timeout(5)
    config.label = "expenses"
    let trace = getenv("EXPENSES_TRACE_SQL") != nil
    config.prepareDatabase { db in
      if trace {
        // Debugging aid: every SQL statement to stderr.
        db.trace { event in FileHandle.standardError.write(Data("sql: \(event)\n".utf8)) }
      }
      // WAL set by hand rather than with `journalMode = .wal`: GRDB's WAL setup creates and drops
      // a table on every open (for DatabasePool readers, which this CLI never uses), and that
      // would rewrite the file even when a command only reads or an import is rolled back.
      // Once set, WAL is persistent in the file and this pragma is a no-op.
      _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
    return config
  }

  /// Creates the file with owner-only permissions before SQLite does: a budget is private.
  static func createPrivateFile(at path: String) throws(StoreError) {
    let directory = (path as NSString).deletingLastPathComponent
    if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw .cannotOpen(path: path, reason: "cannot create directory \(directory)")
      }
    }
    let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    if fd < 0 {
      throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    close(fd)
  }

  static func reason(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      if error.resultCode == .SQLITE_NOTADB { return "not an SQLite database" }
      return error.message ?? "\(error)"
    }
    return "\(error)"
  }

  /// Runs a read, mapping SQLite errors to `StoreError`.
  func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do { return try writer.read(body) } catch { throw AppDatabase.map(error) }
  }

  /// Runs a write in one transaction, mapping SQLite errors to `StoreError`; errors thrown by
  /// `body` that are not database errors are passed through unchanged after the rollback.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    do { return try writer.write(body) } catch let error as DatabaseError { throw AppDatabase.map(error) }
  }

  static func map(_ error: any Error) -> StoreError {
    if let error = error as? StoreError { return error }
    if let error = error as? DatabaseError {
      return .sqlite(error.message ?? "\(error.resultCode)")
    }
    return .sqlite("\(error)")
  }
}

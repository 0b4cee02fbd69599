import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// The one door to the SQLite database: opens it, migrates it, and offers intention-named
/// reads and writes (each write one transaction), like GRDB's demo apps.
///
/// Why a `DatabaseQueue` and not a pool: the CLI is one short-lived process doing one thing.
/// The file is in WAL mode, so a reader never waits for a writer in another process: opening
/// for `.read` writes nothing (no lock, no pragma that writes, no migration unless one is
/// pending), and writers queue behind each other for at most `wait` seconds.
public final class AppDatabase: Sendable {
  /// The schema version this build writes and reads (SQLite `user_version`).
  public static let schemaVersion = 11
  /// The page size of a database this build creates or migrates (see `migrateToV6Narrow`).
  static let pageSize = 16384

  /// What a command means to do with the database.
  public enum Access: Sendable {
    /// Reads only: opening takes no lock and writes nothing, and a read-only file or folder
    /// still answers (writes then fail with `StoreError.readOnly`).
    case read
    /// Reads and writes.
    case write
  }

  /// When a write open checks an existing file for damage (`refuseDamage`).
  public enum DamageCheck: Sendable {
    /// Before the open returns: a command stops before it begins on a damaged file.
    case beforeWriting
    /// Beside the command, on a connection of its own, awaited by the first commit, which is
    /// refused on a damaged file (`DamageCheckAtCommit`): for an import, whose parse the check
    /// then overlaps. Before the open all the same when the open migrates or claims the file.
    case atCommit
  }

  let writer: DatabaseQueue
  /// Keeps this process from opening the file by hand while SQLite holds it (see the type).
  private let openFile: OpenDatabaseFile
  /// The path, or `:memory:` for an in-memory database.
  public let path: String
  /// How long a writer waits for another process's write to end, in seconds.
  public let wait: Double

  /// Opens (creating with mode 0600 if needed) the database at `path`, checks that it is an
  /// expenses database, and migrates it if a migration is pending (after a backup copy).
  ///
  /// - Parameters:
  ///   - access: `.read` for commands that only read (see `Access`).
  ///   - wait: seconds a write waits for another process's write before `StoreError.busy`.
  public init(path: String, access: Access = .write, wait: Double = 10, damageCheck: DamageCheck = .beforeWriting)
    throws(StoreError)
  {
    self.path = path
    self.wait = wait
    AppDatabase.recoverRollbackJournal(path: path)
    var opening = try AppDatabase.inspect(path: path, access: access, wait: wait)
    if access == .read && !opening.exists && path != ":memory:" { throw .noDatabase(path: path) }
    let readOnly = access == .read && !opening.needsMigration || !AppDatabase.isWritable(path)
    // The look's connection serves a read; otherwise it is closed now, before a migration
    // (whose page rebuild needs the file to itself).
    let looked = readOnly ? opening.readConnection : nil
    opening.readConnection = nil
    do {
      if !opening.exists { try AppDatabase.createPrivateFile(at: path) }
      writer = try looked ?? AppDatabase.openQueue(path: path, readOnly: readOnly, wait: wait)
      openFile = OpenDatabaseFile(path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw AppDatabase.map(error, path: path)
    }
    if access == .write && opening.exists && !readOnly {
      if damageCheck == .atCommit && !opening.needsMigration && !opening.needsOwnership {
        let check = DamageCheckAtCommit(path: path, wait: wait)
        writer.writeWithoutTransaction { db in db.add(transactionObserver: check, extent: .databaseLifetime) }
      } else {
        try refuseDamage()
      }
    }
    if opening.needsMigration {
      if readOnly { throw .readOnly(path: path, action: "upgrade the database to this version's schema") }
      try migrate(backup: opening.hasData)
    }
    if !readOnly && opening.needsOwnership { try claim() }
  }

  /// A database around a queue already open: checked by the caller, or on purpose not (a
  /// restore over a damaged file).
  init(path: String, wait: Double, writer: DatabaseQueue) {
    self.path = path
    self.wait = wait
    self.writer = writer
    openFile = OpenDatabaseFile(path: path)
  }

  /// An empty in-memory database with the full schema, for tests.
  public init() throws(StoreError) {
    path = ":memory:"
    wait = 0
    openFile = OpenDatabaseFile(path: path)
    do {
      writer = try DatabaseQueue(configuration: AppDatabase.configuration(readOnly: false, wait: 0))
    } catch {
      throw AppDatabase.map(error, path: path)
    }
    try migrate(backup: false)
    try claim()
  }

  static func openQueue(path: String, readOnly: Bool, wait: Double) throws -> DatabaseQueue {
    let directory = (path as NSString).deletingLastPathComponent
    if readOnly && access(directory.isEmpty ? "." : directory, W_OK) != 0 && access(path + "-shm", F_OK) != 0 {
      // A WAL database in a folder nobody can write: SQLite cannot create the `-shm` file it
      // reads through, and no writer can create a `-wal` either, so reading the file as
      // immutable is exact.
      let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
      return try DatabaseQueue(
        path: "file:\(escaped)?immutable=1", configuration: configuration(readOnly: true, wait: wait))
    }
    return try DatabaseQueue(path: path, configuration: configuration(readOnly: readOnly, wait: wait))
  }

  static func configuration(readOnly: Bool, wait: Double) -> Configuration {
    var config = Configuration()
    config.readonly = readOnly
    config.foreignKeysEnabled = true
    config.busyMode = .timeout(wait)
    config.label = "expenses"
    let trace = getenv("EXPENSES_TRACE_SQL") != nil
    config.prepareDatabase { db in
      if trace {
        // Debugging aid: every SQL statement to stderr.
        db.trace { event in _ = "sql: \(event)\n".withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) } }
      }
      // Per connection, writes nothing. WAL itself is set once, when the file is made ours
      // (`claim`), and is persistent in the file.
      db.add(function: DailyOutflow.addFunction)
      db.add(function: DailyOutflow.aggregateFunction)
      KeyDateFunction.register(db)
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

  /// True when both the file (if it exists) and its folder can be written: SQLite needs the
  /// folder for its `-wal` and `-shm` files.
  static func isWritable(_ path: String) -> Bool {
    // The nearest folder that exists: a missing one is created (mode 0700) when it can be.
    var directory = (path as NSString).deletingLastPathComponent
    while !directory.isEmpty && directory != "/" && access(directory, F_OK) != 0 {
      directory = (directory as NSString).deletingLastPathComponent
    }
    let folderOK = access(directory.isEmpty ? "." : directory, W_OK) == 0
    let fileOK = access(path, F_OK) != 0 || access(path, W_OK) == 0
    return folderOK && fileOK
  }

  /// Runs a read, mapping SQLite errors to `StoreError`.
  func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do { return try joiningRead(body) } catch { throw AppDatabase.map(error, path: path) }
  }

  /// Runs a write in one transaction, mapping SQLite errors to `StoreError`; errors thrown by
  /// `body` that are not database errors are passed through unchanged after the rollback.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    // GRDB's queue is not reentrant: a write inside `consistently`'s read would trap.
    if readsJoinOpenTransaction { throw StoreError.sqlite("a write was asked inside a read-only report read") }
    do { return try joinsOpenWrite ? joiningWrite(body) : writer.write(body) } catch let error as DatabaseError {
      throw AppDatabase.map(error, path: path)
    } catch let error as RowDecodingError {
      throw AppDatabase.map(error, path: path)
    } catch let error as UnreadableValue {
      throw AppDatabase.map(error, path: path)
    }
  }
}

import ExpenseStore
import Foundation
import GRDB

/// What opening a file found, before anything is written to it.
struct Opening {
  /// The file exists and is not empty.
  var exists: Bool
  /// It holds tables (a migration then backs it up first).
  var hasData: Bool
  /// Some migration of this build has not run on it yet.
  var needsMigration: Bool
  /// It lacks our application id or WAL mode: the next write sets them (`claim`).
  var needsOwnership: Bool
  /// The read-only connection the look was made with, for a `.read` of our file (not
  /// `immutable`): a read that needs no migration keeps it, so the file is opened and its
  /// schema parsed once.
  var readConnection: DatabaseQueue? = nil
}

extension AppDatabase {
  /// Tables (`expense` a view since v6) whose presence marks a database made before the application id existed.
  static let ownTables: Set<String> = ["expense", "monthTotal", "budget", "sectionPreference"]

  /// Looks at the file before anything is written to it: is it SQLite, is it ours, is it
  /// newer than this build, does it need a migration. Writes nothing, so a foreign file that is
  /// refused stays byte-for-byte as it was, journal mode included, with no `-wal` or `-shm`.
  ///
  /// The SQLite header is read by hand first (magic, application id): a text file is "not a
  /// SQLite database", another program's id is refused without SQLite opening the file. Only a
  /// file with no id (ours from before the id, or an empty SQLite file) is opened, immutable,
  /// to list its schema. For `.read`, an empty file (0 bytes, or SQLite with no schema at all)
  /// is refused too: a read never turns a file into a database.
  ///
  /// `wait` is the caller's busy wait, for this look too: a new connection takes its shared
  /// lock on the file, and in this process another connection of the same file that is
  /// closing holds a pending lock for a moment (SQLite's check for being the last one), so
  /// without a wait a server opening one ledger while closing another was refused as busy.
  static func inspect(path: String, access: Access = .write, wait: Double = 10) throws(StoreError) -> Opening {
    var status = stat()
    guard stat(path, &status) == 0, status.st_size > 0 else {
      if access == .read && stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG {
        throw StoreError.notADatabase(path: path)
      }
      return Opening(exists: false, hasData: false, needsMigration: true, needsOwnership: true)
    }
    let applicationID = try SQLiteHeader.applicationID(path: path)
    guard applicationID == 0 || applicationID == AppDatabase.applicationID else {
      throw StoreError.notADatabase(path: path)
    }
    do {
      let queue =
        applicationID == 0
        ? try openImmutable(path: path) : try openQueue(path: path, readOnly: true, wait: wait)
      var opening = try queue.read { db throws -> Opening in
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let journal = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"))
        let schemaObjects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
        let ours =
          applicationID == AppDatabase.applicationID || (applicationID == 0 && tables.isSuperset(of: ownTables))
        let empty = applicationID == 0 && schemaObjects == 0
        guard ours || (empty && access == .write) else { throw StoreError.notADatabase(path: path) }
        let migrator = AppDatabase.migrator
        let known = tables.contains("grdb_migrations")
        let superseded = known ? try migrator.hasBeenSuperseded(db) : false
        if userVersion > schemaVersion || superseded {
          throw StoreError.newerSchema(path: path, found: max(userVersion, schemaVersion + 1), supported: schemaVersion)
        }
        let complete = known ? try migrator.hasCompletedMigrations(db) : false
        return Opening(
          exists: true, hasData: !tables.isEmpty, needsMigration: !complete,
          needsOwnership: applicationID != AppDatabase.applicationID || journal.lowercased() != "wal")
      }
      if applicationID != 0 && access == .read { opening.readConnection = queue }
      return opening
    } catch let error as StoreError {
      throw error
    } catch {
      throw map(error, path: path)
    }
  }

  /// A read-only connection that reads the main file only (`immutable=1`): no lock, no `-wal`
  /// or `-shm` created, so inspecting a file that may be another program's leaves no trace.
  static func openImmutable(path: String) throws -> DatabaseQueue {
    let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    return try DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: configuration(readOnly: true, wait: 0))
  }

  /// Marks the file as ours: the application id, and WAL mode (persistent in the file) so
  /// readers in other processes never wait for a writer.
  func claim() throws(StoreError) {
    do {
      try writer.writeWithoutTransaction { db in
        if path != ":memory:", try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" {
          _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
      }
      try writer.write { db in
        if try Int32.fetchOne(db, sql: "PRAGMA application_id") != AppDatabase.applicationID {
          try db.execute(sql: "PRAGMA application_id = \(AppDatabase.applicationID)")
        }
      }
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// Maps SQLite and decoding errors to `StoreError`, naming the database: busy → `.busy`,
  /// damage → `.corrupt`, a full disk → `.diskFull`, a read-only file → `.readOnly`, other
  /// I/O → `.io`, a stored value of the wrong type → `.unreadable`.
  static func map(_ error: any Error, path: String) -> StoreError {
    if let error = error as? StoreError { return error }
    if let error = error as? UnreadableValue { return .unreadable(path: path, detail: error.detail) }
    if let error = error as? RowDecodingError {
      return .unreadable(path: path, detail: "\(error)")
    }
    guard let error = error as? DatabaseError else { return .sqlite("\(path): \(error)") }
    let message = error.message ?? "\(error.resultCode)"
    switch error.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy(path: path)
    case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .corrupt(path: path, detail: message)
    case .SQLITE_FULL: return .diskFull(path: path)
    case .SQLITE_READONLY: return .readOnly(path: path, action: "write to it")
    case .SQLITE_IOERR:
      if let limit = fileSizeLimitReached(path: path) { return .fileSizeLimit(path: path, bytes: limit) }
      return .io(path: path, detail: message)
    case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
      return .io(path: path, detail: message)
    default: return .sqlite("\(path): \(message)")
    }
  }

  /// The process's file-size limit (`ulimit -f`) when the database, its `-wal` or its
  /// `-journal` has grown to within a page of it: the write that failed went past it (SQLite
  /// only says "disk I/O error"). Nil without a limit.
  static func fileSizeLimitReached(path: String) -> UInt64? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
      return nil
    }
    for file in [path, path + "-wal", path + "-journal"] {
      var status = stat()
      guard stat(file, &status) == 0 else { continue }
      if UInt64(status.st_size) + UInt64(pageSize) * 2 >= UInt64(limit.rlim_cur) { return UInt64(limit.rlim_cur) }
    }
    return nil
  }

  /// Copies the database to `NAME.before-vN` (N: this build's schema; `.1`, `.2`, ... when that
  /// name is taken) with `VACUUM INTO`, a consistent copy made under a read transaction.
  func backupBeforeMigration() throws {
    var target = "\(path).before-v\(AppDatabase.schemaVersion)"
    var attempt = 0
    while FileManager.default.fileExists(atPath: target) {
      attempt += 1
      target = "\(path).before-v\(AppDatabase.schemaVersion).\(attempt)"
    }
    let fd = open(target, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError.cannotOpen(path: target, reason: String(cString: strerror(errno))) }
    close(fd)
    do {
      try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [target]) }
    } catch {
      unlink(target)
      throw error
    }
  }
}

/// A stored value that does not decode, described by what holds it (thrown inside a read and
/// turned into `StoreError.unreadable` with the database's path by `AppDatabase.map`).
struct UnreadableValue: Error {
  var detail: String
}

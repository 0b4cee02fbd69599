import ExpenseCore
import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite

extension AppDatabase {
  /// Writes a consistent copy of the whole database into `path`, which must be missing or an
  /// empty file (the caller's checked temporary file), with SQLite's `VACUUM INTO`.
  ///
  /// Why `VACUUM INTO`: it reads in one read transaction, so in WAL mode the copy is a snapshot
  /// taken while other processes go on reading and writing (it neither waits for a writer nor
  /// blocks one), and the copy is compacted and self-contained (no `-wal` to carry along). The
  /// application id and schema version travel with it.
  public func backup(into path: String) throws(StoreError) {
    do {
      try writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// Replaces every page of this database with the pages of the verified backup at `path`,
  /// through SQLite's online backup API, in one write transaction; returns what was restored.
  /// With `previous`, the database as it was (its file and its `-wal`, byte for byte: a damaged
  /// page is kept as it is) is first copied there under the same write lock, and put in place
  /// before the restored pages are committed: no write of another process falls between the
  /// copy and the restore, and a kill at any point leaves the old database, or the new one
  /// with the kept copy.
  ///
  /// Why not rename the file over the database: other processes may have the database open,
  /// and its `-wal` and `-shm` are found by name. A renamed-in file would meet the old file's
  /// WAL (frames of the old database, replayed onto the new one) and shared-memory index, and a
  /// writer still holding the old file could append to that WAL. Writing through SQLite instead
  /// takes the write lock (waiting for a running import like any writer), goes through the WAL
  /// like any commit, and every reader sees either the old database or the restored one.
  public func restore(from path: String, keepingPreviousIn previous: String? = nil) throws -> BackupInfo {
    let info = try AppDatabase.verifyBackup(at: path)
    let source: DatabaseQueue
    do {
      var config = Configuration()
      config.readonly = true
      source = try DatabaseQueue(path: path, configuration: config)
    } catch {
      throw AppDatabase.map(error, path: path)
    }
    defer { try? source.close() }
    do {
      try writer.writeWithoutTransaction { destination in
        try source.inDatabase { origin in
          try AppDatabase.copyPages(from: origin, into: destination) {
            if let previous { try AppDatabase.keepByCopy(destination, as: previous) }
          }
        }
      }
      // Fold the restored pages into the file now (best effort: a reader may hold the WAL).
      try writer.writeWithoutTransaction { db in
        _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
      }
    } catch {
      throw AppDatabase.map(error, path: self.path)
    }
    return info
  }

  /// The online backup from `origin` into `destination` in two steps: a first step of no page
  /// takes the destination's write lock (waiting up to the busy timeout), then `whileLocked`
  /// runs, then every page is copied and committed. An error rolls everything back.
  static func copyPages(from origin: Database, into destination: Database, whileLocked: () throws -> Void) throws {
    guard let backup = sqlite3_backup_init(destination.sqliteConnection, "main", origin.sqliteConnection, "main")
    else {
      throw DatabaseError(resultCode: destination.lastErrorCode, message: destination.lastErrorMessage)
    }
    var finished = false
    defer { if !finished { sqlite3_backup_finish(backup) } }
    for pages: Int32 in [0, -1] {
      let code = sqlite3_backup_step(backup, pages)
      guard code == SQLITE_OK || code == SQLITE_DONE else {
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: destination.lastErrorMessage)
      }
      if pages == 0 { try whileLocked() }
    }
    finished = true
    let code = sqlite3_backup_finish(backup)
    guard code == SQLITE_OK else {
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: destination.lastErrorMessage)
    }
    destination.clearSchemaCache()
  }

  /// Opens the file at `path` on its own and checks it can become this program's database:
  /// SQLite's integrity check passes, it is ours (our application id, or no id but our tables:
  /// a file made before the id existed), and its schema is not newer than this program's.
  public static func verifyBackup(at path: String) throws(BackupError) -> BackupInfo {
    guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
    do {
      var config = Configuration()
      config.readonly = true
      let queue = try DatabaseQueue(path: path, configuration: config)
      defer { try? queue.close() }
      return try queue.read { db throws -> BackupInfo in
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        guard integrity == ["ok"] else {
          throw BackupError.damaged(path: path, detail: integrity.prefix(3).joined(separator: "; "))
        }
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let ours = try (db.tableExists("expense") || db.viewExists("expense")) && db.tableExists("monthTotal")
        guard id == AppDatabase.applicationID || (id == 0 && ours) else { throw BackupError.notOurs(path: path) }
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let superseded = try db.tableExists("grdb_migrations") && AppDatabase.migrator.hasBeenSuperseded(db)
        guard version <= AppDatabase.schemaVersion && !superseded else {
          throw BackupError.newerSchema(
            path: path, found: max(version, AppDatabase.schemaVersion + 1), supported: AppDatabase.schemaVersion)
        }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense") ?? 0
        return BackupInfo(expenseCount: count, schemaVersion: version)
      }
    } catch let error as BackupError {
      throw error
    } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
      throw .damaged(path: path, detail: AppDatabase.describe(error))
    } catch {
      throw .unreadable(path: path, reason: AppDatabase.describe(error))
    }
  }
}

extension AppDatabase {
  /// An SQLite error in words, for a file that is not the database.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DatabaseError else { return "\(error)" }
    if error.resultCode == .SQLITE_NOTADB { return "not an SQLite database" }
    return error.message ?? "\(error.resultCode)"
  }
}

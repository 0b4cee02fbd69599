import ExpenseStore
import Foundation
import GRDB
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// `restore` of a database that may be damaged, in an order a SIGKILL cannot break: at every
/// moment either the old database is in place, or the restored one is in place and the old one
/// is kept as `DB.before-restore`.
extension AppDatabase {
  /// What `restore(databaseAt:...)` did (the store-neutral type, named here as before).
  public typealias RestoreOutcome = ExpenseStore.RestoreOutcome

  /// Replaces the database at `path` with the verified backup `copy` (a private file beside
  /// `path`, consumed), keeping the database as it was in `previous`.
  ///
  /// A database SQLite can lock is restored through SQLite (`restore(from:keepingPreviousIn:)`:
  /// readers see the old data or the new), its bytes copied to `previous` under the write lock
  /// and put in place before the backup's pages are committed. A database too damaged for that
  /// (its header, its schema, or a page the restore must read) is kept by a hard link named
  /// `previous`, made before the backup is renamed over `path`; its `-wal` goes with it.
  public static func restore(
    databaseAt path: String, from copy: String, keepingPreviousIn previous: String, wait: Double
  ) throws -> RestoreOutcome {
    let info = try verifyBackup(at: copy)
    var status = stat()
    if stat(path, &status) != 0 || status.st_size == 0 {
      try moveIntoPlace(copy, at: path)
      return RestoreOutcome(info: info, keptPrevious: false, replacedFile: false)
    }
    do {
      let db = try AppDatabase(uncheckedPath: path, wait: wait)
      _ = try db.restore(from: copy, keepingPreviousIn: previous)
      return RestoreOutcome(info: info, keptPrevious: true, replacedFile: false)
    } catch StoreError.corrupt {
      try keepByLink(path, as: previous)
      try moveIntoPlace(copy, at: path)
      return RestoreOutcome(info: info, keptPrevious: true, replacedFile: true)
    } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
      try keepByLink(path, as: previous)
      try moveIntoPlace(copy, at: path)
      return RestoreOutcome(info: info, keptPrevious: true, replacedFile: true)
    }
  }

  /// Opens the file as it is, for `restore`: no check of what it holds, no migration, no claim.
  convenience init(uncheckedPath path: String, wait: Double) throws(StoreError) {
    do {
      try self.init(path: path, wait: wait, writer: AppDatabase.openQueue(path: path, readOnly: false, wait: wait))
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// Renames `file` over `path` after flushing it, then flushes the folder: the rename is the
  /// moment the restored database appears.
  static func moveIntoPlace(_ file: String, at path: String) throws(StoreError) {
    let fd = open(file, O_RDONLY | O_CLOEXEC)
    if fd >= 0 {
      fsync(fd)
      close(fd)
    }
    for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
    guard rename(file, path) == 0 else { throw .io(path: path, detail: String(cString: strerror(errno))) }
    syncFolder(of: path)
  }

  /// Keeps the file at `path` (and its `-wal`) as `previous` by hard links, each made under a
  /// hidden name and renamed into place, `previous` last. A stale `previous-wal` (of an earlier
  /// restore) is removed first, so it can never be replayed onto the new `previous`.
  static func keepByLink(_ path: String, as previous: String) throws(StoreError) {
    for suffix in ["-wal", "-shm", "-journal"] { unlink(previous + suffix) }
    if access(path + "-wal", F_OK) == 0 { try link(path + "-wal", as: previous + "-wal") }
    try link(path, as: previous)
    // The old file's write-ahead log now lives on as `previous-wal`: it must not meet the
    // restored file under the old name.
    for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    syncFolder(of: previous)
  }

  /// A hard link to `file` named `target`, made atomically (under a hidden name, then renamed).
  static func link(_ file: String, as target: String) throws(StoreError) {
    let hidden = hiddenName(beside: target)
    guard Glibc.link(file, hidden) == 0 else {
      throw .cannotOpen(path: target, reason: "cannot keep \(file) there: \(String(cString: strerror(errno)))")
    }
    guard rename(hidden, target) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(hidden)
      throw .cannotOpen(path: target, reason: reason)
    }
  }

  /// Copies the database file and its `-wal` byte for byte into `previous` (and
  /// `previous-wal`), each through a hidden file flushed and renamed into place, `previous`
  /// last. Run under the write lock: no commit can change either file meanwhile, and a
  /// checkpoint only moves into the main file pages that the copied log holds too.
  ///
  /// The bytes are read through the connection's own open files (`SQLiteFile`), never by
  /// opening the database by hand: closing a descriptor of our own would drop every POSIX lock
  /// this process holds on the file, the write lock of this very restore included, and another
  /// process could then write, or delete the `-wal`, in the middle of it.
  static func keepByCopy(_ db: Database, as previous: String) throws {
    for suffix in ["-wal", "-shm", "-journal"] { unlink(previous + suffix) }
    if let wal = SQLiteFile(db, journal: true) { try wal.copy(to: previous + "-wal") }
    guard let main = SQLiteFile(db, journal: false) else {
      throw StoreError.io(path: previous, detail: "SQLite did not hand over the database file to copy")
    }
    try main.copy(to: previous)
    syncFolder(of: previous)
  }

  /// A name `.NAME.PID.N` beside `target` that no file has: hidden, and carrying the process
  /// id so `removeLeftovers` knows when its maker is gone.
  static func hiddenName(beside target: String) -> String {
    let directory = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    let prefix = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid())."
    var attempt = 0
    while access(prefix + "\(attempt)", F_OK) == 0 { attempt += 1 }
    return prefix + "\(attempt)"
  }

  /// Removes hidden files that a `restore` or a `copy` killed half-way left beside the database
  /// at `path` (`.DB.restore.PID.*`, `.DB.before-restore.PID.*`, `.DB.before-restore-wal.PID.*`,
  /// `.DB.copy.PID.*` with their `-wal` and `-shm`), when the process that made them is gone.
  /// Never the database, never a kept copy.
  public static func removeLeftovers(besides path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let folder = directory.isEmpty ? "." : directory
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for prefix in [".\(name).restore.", ".\(name).before-restore.", ".\(name).before-restore-wal.", ".\(name).copy."] {
      for entry in entries where entry.hasPrefix(prefix) {
        let pidText = entry.dropFirst(prefix.count).prefix { $0 != "." }
        guard let pid = Int32(pidText), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
        unlink(folder + "/" + entry)
      }
    }
  }

  /// Flushes a folder, so that a rename in it is on disk (best effort).
  static func syncFolder(of path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }
}

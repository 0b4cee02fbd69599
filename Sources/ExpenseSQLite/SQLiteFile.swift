import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite
import SystemIO

#if canImport(Glibc)
  import Glibc
#endif

/// One of a connection's open files (its database or its write-ahead log), read through
/// SQLite's own file object (`SQLITE_FCNTL_FILE_POINTER`, `SQLITE_FCNTL_JOURNAL_POINTER`).
///
/// Why: SQLite's locks are POSIX advisory locks, owned by the process and all dropped when the
/// process closes any descriptor of the file. Opening a database this process holds and closing
/// it again would release the locks of every connection of ours to it (see `OpenDatabaseFile`).
/// Reading through the object SQLite already has open takes no descriptor at all.
struct SQLiteFile {
  private let file: UnsafeMutablePointer<sqlite3_file>
  private let methods: UnsafePointer<sqlite3_io_methods>

  /// The connection's database file, or (`journal`) its write-ahead log or rollback journal;
  /// `nil` when that file is not open.
  init?(_ db: Database, journal: Bool) {
    var pointer: UnsafeMutablePointer<sqlite3_file>?
    let op = journal ? SQLITE_FCNTL_JOURNAL_POINTER : SQLITE_FCNTL_FILE_POINTER
    guard sqlite3_file_control(db.sqliteConnection, "main", op, &pointer) == SQLITE_OK, let pointer,
      let methods = pointer.pointee.pMethods
    else { return nil }
    file = pointer
    self.methods = methods
  }

  /// The file's size in bytes.
  func size() throws(StoreError) -> Int64 {
    var size: sqlite3_int64 = 0
    guard let fileSize = methods.pointee.xFileSize, fileSize(file, &size) == SQLITE_OK else {
      throw .io(path: "", detail: "cannot read the size of the database file")
    }
    return size
  }

  /// Copies the whole file into a new 0600 file named `target` (replacing it), through a hidden
  /// file flushed and renamed into place.
  func copy(to target: String) throws(StoreError) {
    guard let read = methods.pointee.xRead else { throw .io(path: target, detail: "SQLite cannot read the file") }
    let total = try size()
    let hidden = AppDatabase.hiddenName(beside: target)
    let output = open(hidden, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw .cannotOpen(path: target, reason: String(cString: strerror(errno))) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var offset: Int64 = 0
    var failure: String?
    while failure == nil && offset < total {
      let count = Int(min(Int64(buffer.count), total - offset))
      let code = buffer.withUnsafeMutableBytes { raw in read(file, raw.baseAddress, Int32(count), offset) }
      if code != SQLITE_OK {
        failure = "cannot read the database at byte \(offset) (SQLite error \(code))"
      } else if let error = FileDescriptorWriter.writeAll(output, buffer, count: count) {
        failure = String(cString: strerror(error))
      }
      offset += Int64(count)
    }
    if failure == nil && fsync(output) != 0 { failure = String(cString: strerror(errno)) }
    close(output)
    if failure == nil && rename(hidden, target) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(hidden)
      throw .io(path: target, detail: failure)
    }
  }
}

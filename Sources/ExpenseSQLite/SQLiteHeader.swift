import ExpenseStore
import Foundation

/// The first 100 bytes of an SQLite file, read by hand: whether a file is SQLite at all, and
/// whose it is, are known before SQLite opens it (and so before SQLite can create a `-wal`
/// or `-shm` beside another program's file).
enum SQLiteHeader {
  /// "SQLite format 3" and its NUL: the first 16 bytes of every SQLite database.
  static let magic: [UInt8] = Array("SQLite format 3\0".utf8)

  /// The header's application id (big-endian, at offset 68); throws `.notSQLite` for a file
  /// too short or without the magic, `.cannotOpen` for one that cannot be read.
  static func applicationID(path: String) throws(StoreError) -> Int32 {
    // A file this process has open through SQLite was checked when it was opened, and reading
    // it by hand now would release SQLite's locks on it (see `OpenDatabaseFile`).
    if OpenDatabaseFile.isOpen(path) { return AppDatabase.applicationID }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 100)
    var filled = 0
    while filled < header.count {
      let n = header.withUnsafeMutableBytes { raw in
        raw.baseAddress.map { pread(fd, $0 + filled, raw.count - filled, off_t(filled)) } ?? 0
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw .io(path: path, detail: String(cString: strerror(errno))) }
      if n == 0 { break }
      filled += n
    }
    guard filled == header.count, Array(header[0..<16]) == magic else {
      let detail =
        filled < header.count
        ? "it is \(filled) bytes long, shorter than SQLite's header" : "its first bytes are not SQLite's header"
      throw .notSQLite(path: path, detail: detail)
    }
    let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return Int32(bitPattern: id)
  }
}

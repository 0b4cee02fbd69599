import ExpenseStore
import Foundation
import Synchronization

/// The database files this process has open through SQLite, by device and inode.
///
/// Why: SQLite's locks on a file are POSIX advisory locks, which belong to the process and are
/// all released when the process closes *any* descriptor of that file. Reading the header by
/// hand (`SQLiteHeader`) while a connection of this process holds the file would drop that
/// connection's locks: another process (the CLI, `sqlite3`) would then take itself for the last
/// user, delete the `-wal` under the server's feet, and every later commit of the server would
/// go to a deleted file. So a file this process already has open is never opened by hand again:
/// it was checked when it was first opened.
final class OpenDatabaseFile: Sendable {
  struct Key: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }
  }

  private static let counts = Mutex<[Key: Int]>([:])
  private let key: Key?

  /// Marks `path` as open for as long as this object lives.
  init(path: String) {
    key = path == ":memory:" ? nil : Key(path: path)
    if let key { OpenDatabaseFile.counts.withLock { $0[key, default: 0] += 1 } }
  }

  deinit {
    guard let key else { return }
    OpenDatabaseFile.counts.withLock { counts in
      let left = (counts[key] ?? 1) - 1
      counts[key] = left > 0 ? left : nil
    }
  }

  /// Whether a live `AppDatabase` of this process has the file at `path` open.
  static func isOpen(_ path: String) -> Bool {
    guard let key = Key(path: path) else { return false }
    return counts.withLock { ($0[key] ?? 0) > 0 }
  }
}

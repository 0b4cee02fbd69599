import ExpenseStore
import Foundation
import GRDB

extension AppDatabase {
  /// Rewrites a migrated database with `pageSize` pages (v6: 16 KiB; older files have 4 KiB).
  ///
  /// SQLite cannot change the page size of a WAL database, so the file leaves WAL for the
  /// rebuild: `journal_mode = DELETE`, `page_size`, `VACUUM`, back to WAL. The VACUUM rewrites
  /// the file in place under SQLite's rollback journal: killed half-way, the next open rolls
  /// the journal back (`recoverRollbackJournal`) and finds the migrated database with its old
  /// pages, complete; nothing is renamed or replaced, so a symlink or a file another process
  /// holds open stays what it was. The copy `NAME.before-v6` was made before the migration.
  ///
  /// Best effort: when another connection holds the file (WAL cannot be left while it reads),
  /// or the rebuild fails (a full disk), the database stays as migrated, correct with its old
  /// page size, and works as before; only the import is slower.
  func rebuildPages() throws {
    guard path != ":memory:" else { return }
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
    try writer.writeWithoutTransaction { db in
      guard (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0) < AppDatabase.pageSize else { return }
      let wasWAL = try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal"
      do {
        if wasWAL {
          guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")?.lowercased() == "delete" else {
            return
          }
        }
        try db.execute(sql: "PRAGMA page_size = \(AppDatabase.pageSize)")
        try db.execute(sql: "VACUUM")
      } catch {
        // Rolled back by SQLite: the file is the migrated one, with its old page size.
      }
      if wasWAL { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
    }
  }

  /// Rolls back what a process killed during `rebuildPages` left: a hot rollback journal
  /// (`NAME-journal`) beside one of our databases. A read-only connection cannot roll it back
  /// and would refuse the file, so it is done first, by a read on a read-write connection,
  /// as any SQLite client would on its next open. Not for another program's file (checked by
  /// its application id) nor for a folder this process cannot write.
  static func recoverRollbackJournal(path: String) {
    var status = stat()
    guard path != ":memory:", stat(path + "-journal", &status) == 0, status.st_size > 0,
      isWritable(path), (try? SQLiteHeader.applicationID(path: path)) == AppDatabase.applicationID
    else { return }
    if let queue = try? DatabaseQueue(path: path, configuration: configuration(readOnly: false, wait: 10)) {
      _ = try? queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
      try? queue.close()
    }
  }
}

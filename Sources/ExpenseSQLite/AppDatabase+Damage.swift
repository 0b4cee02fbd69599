import ExpenseStore
import GRDB

extension AppDatabase {
  /// Stops a command that writes before it writes anything, when the file is damaged.
  ///
  /// Why a whole check and not just the pages the write touches: SQLite only notices damage on
  /// the pages it reads, so an `add` or an `import` next to an overwritten page went ahead and
  /// committed while `check` said the file was damaged, and SQLite has no check of "the pages
  /// this write will touch". `PRAGMA quick_check` reads every page of every table and index
  /// (it skips only the index-against-table comparison of `integrity_check`); its cost is
  /// linear in the file, measured small next to a write's own cost (see the project's notes),
  /// so every write open pays it once. A statement that meets damage later (another process
  /// damaging the file meanwhile) fails with SQLITE_CORRUPT, which `map` turns into the same
  /// `.corrupt` after the transaction is rolled back.
  func refuseDamage() throws(StoreError) {
    let problems = try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(3)") }
    guard problems == ["ok"] else {
      throw .corrupt(path: path, detail: problems.joined(separator: "; "))
    }
  }
}

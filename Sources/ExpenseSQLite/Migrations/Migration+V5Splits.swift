import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v5-splits": the parts of a split transaction, kept together.
  ///
  /// A QIF record with `S`/`$` lines is one bank transaction shared among categories; each part
  /// is stored as its own expense (so it counts under its own category) and `splitPart` says
  /// which expenses belong together: one row per part, `setId` being the id of the set's first
  /// part. Expense ids never change (an edit keeps the id), so this holds across edits. The
  /// table only has rows for split parts: an ordinary import writes nothing to it, and the
  /// expense rows stay as narrow as before.
  static func migrateSplits(_ db: Database) throws {
    try db.create(table: "splitPart") { t in
      t.primaryKey("id", .integer)  // expense.id
      t.column("setId", .integer).notNull().indexed()  // the id of the set's first part
    }
  }
}

import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v11-inline-texts": a description may be stored in its row. `expenseRow.descriptionId`
  /// holds either an INTEGER, the id of a `descriptionText` entry as before, or a BLOB, the
  /// description's own UTF-8 bytes (a BLOB because no column affinity converts it: stored as
  /// TEXT in this INTEGER column, "12" would become the number 12). The import stores a text
  /// seen once inline (`DescriptionTexts`); edits and hand-added rows go through the view's
  /// triggers and the dictionary, as before.
  ///
  /// The rows are not rewritten: only the view `expense` (and with it its triggers) is made
  /// again, now reading an inline description as TEXT (`descriptionSQL`). A build before this
  /// one refuses the file (newer schema) instead of reading an inline description as NULL.
  static func migrateInlineTexts(_ db: Database) throws {
    try db.execute(sql: "DROP VIEW expense")  // and its INSTEAD OF triggers
    try db.execute(sql: expenseViewSQL)
  }

  /// The description of row `row` of `expenseRow` in SQL, given `text`, the dictionary's
  /// text joined on its `descriptionId`: the inline bytes as TEXT, or the dictionary's
  /// (NULL, as before, for an id without an entry).
  static func descriptionSQL(row: String, text: String) -> String {
    "CASE WHEN typeof(\(row).descriptionId) = 'blob' THEN CAST(\(row).descriptionId AS TEXT) ELSE \(text) END"
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO

/// Imports: one transaction per file, and their undo by id range.
extension PostgresStore {
  public func importRows<T>(
    sourceFile: String, dryRun: Bool, explainLimit: Int, importedAt: Date?, _ body: (any ImportWriter) throws -> T
  ) throws -> T {
    if dryRun {
      // A read-only snapshot: no ledger lock, nothing written (`PostgresImportWriter.dryRun`).
      return try consistently {
        try read { connection in
          let writer = try PostgresImportWriter(
            store: self, connection: connection, sourceFile: sourceFile, explainLimit: explainLimit, dryRun: true)
          let value = try body(writer)
          try writer.finish(importedAt: nil)
          return value
        }
      }
    }
    return try write(keep: true) { connection in
      let writer = try PostgresImportWriter(
        store: self, connection: connection, sourceFile: sourceFile, explainLimit: explainLimit)
      do {
        let value = try body(writer)
        try writer.finish(importedAt: importedAt.map(ImportRecord.timestamp))
        return value
      } catch {
        if let failed = writer.abandon() { throw failed }
        throw error
      }
    }
  }

  public func imports() throws -> [ImportRecord] {
    try read { connection in
      try connection.query(
        """
        SELECT id, file, imported_at, rows, first_id, last_id, to_char(first_date, 'YYYY-MM-DD'),
               to_char(last_date, 'YYYY-MM-DD')
        FROM import_record WHERE ledger_id = \(ledger) ORDER BY id
        """
      ).map { row in
        let (id, file, at, count, first, last, firstDate, lastDate) = try row.decode(
          (Int64, String, String?, Int64, Int64, Int64, String, String).self)
        return ImportRecord(
          id: id, file: file, importedAt: at, rows: Int(clamping: count), firstId: first, lastId: last,
          firstDate: try CivilDate.parseStored(firstDate), lastDate: try CivilDate.parseStored(lastDate))
      }
    }
  }

  /// Deletes the rows import `id` added that are still there (one statement on the id range:
  /// the rollup follows by trigger) and forgets the import.
  public func removeImport(id: Int64) throws -> Int {
    try write { connection in
      let record = try connection.query(
        "SELECT first_id, last_id FROM import_record WHERE ledger_id = \(ledger) AND id = \(id)")
      guard let (first, last) = try record.first?.decode((Int64, Int64).self) else {
        throw StoreError.importNotFound(id)
      }
      if first <= last { try dissolvePairs(connection, inRange: first...last) }
      let removed = try connection.query(
        """
        DELETE FROM expense WHERE ledger_id = \(ledger)
          AND key IN (SELECT expense_keys_between(\(ledger), \(first), \(last)))
        """)
      try connection.query("DELETE FROM split_part WHERE ledger_id = \(ledger) AND id BETWEEN \(first) AND \(last)")
      try connection.query("DELETE FROM import_record WHERE ledger_id = \(ledger) AND id = \(id)")
      return removed.metadata.rows ?? 0
    }
  }
}

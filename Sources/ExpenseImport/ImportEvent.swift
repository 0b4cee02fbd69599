import ExpenseCore

/// What `CSVImporter.run` reports, in file order.
public enum ImportEvent {
  /// A good transaction.
  case row(ImportedRow)
  /// A row deliberately left out (pending status, `--skip-when`, balance/trailer line).
  case excluded(line: Int, reason: String)
  /// A bad row (only when `skipInvalid` is true).
  case rejected(ImportIssue)
  /// Something the user should know (e.g. most amounts positive: maybe `--spending positive`).
  case warning(String)
  /// A balance the file states for an account (`StatementBalance`), stored with the rows.
  case balance(StatementBalance)
  /// A row whose key the ledger held before this import (`CSVImporter.storedKeys`): a
  /// duplicate, handed over without its texts.
  case stored(StoredRow)
}

/// What an importer hands each event to. The event is taken, not borrowed, so a row moves on
/// into its batch without a copy (a copy is a retain and a release per text of every row).
public typealias ImportEventHandler = (consuming ImportEvent) throws -> Void

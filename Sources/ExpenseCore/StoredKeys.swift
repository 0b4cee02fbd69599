/// The keys a ledger held before an import began, asked on the parse thread.
///
/// A row whose key is among them is a duplicate however the rest of it reads, so the importer
/// hands over a `StoredRow` (what the count, the explanation and the matching need) instead of a
/// whole row: no description text, no rules, no batch, no sums. A file imported again then
/// costs its parse and a lookup a row. Only a store that can read the ledger as it was when
/// the import's writer began offers one; every other row is left to the writer's own check.
public protocol StoredKeys: AnyObject {
  /// Whether a row with `key` was stored before this import began. False when unsure (the
  /// writer checks every row it is given, so false is always safe; true must be certain).
  func contains(_ key: Int64) -> Bool
}

/// A row whose key the ledger held before the import (see `StoredKeys`): a duplicate. Plain
/// values only, so handing one over copies bytes and retains nothing (its account and
/// currency, which the file's balance evidence reads, stay with the importer that read them).
public struct StoredRow: Sendable, Equatable {
  public var line: Int
  public var key: Int64
  public var date: CivilDate

  @inlinable
  public init(line: Int, key: Int64, date: CivilDate) {
    self.line = line
    self.key = key
    self.date = date
  }
}

import ExpenseCore

/// Rows grouped for one write: sorted by key, with their file order and their sums. Everything
/// here needs no database, so it is built on the parse thread and the writer only checks, numbers
/// and inserts.
public struct PreparedBatch: Sendable {
  /// Sorted by key, then by file position (so of two rows with one key the first is kept).
  public package(set) var rows: [ImportedRow]
  /// `fileOrder[k]` is the index in `rows` of the batch's k-th row in file order.
  public package(set) var fileOrder: [Int32]
  /// Sums of every row; the writer takes the duplicates back out.
  package var totals: MonthTotalDeltas
  /// Each row's key in `totals` (by index in `rows`), so a duplicate is taken out without
  /// hashing its category again.
  package var totalKeys: [Int64] = []
  /// Whether a row has a `formerKey` (a statement's card payment): most batches have none.
  package var hasFormerKeys = true
  /// The rows' descriptions as UTF-8, one after another in row order, row `i`'s ending at
  /// `descriptionEnds[i]`: copied by the batcher on the parse thread, where the texts were
  /// made, so that a store reads them here instead of through each row (a reference taken to
  /// a text made on the other core is a cache miss on the writer's). Empty: read the rows.
  package var descriptionBytes: [UInt8] = []
  package var descriptionEnds: [Int] = []
  /// `TextHash` of each row's description in `descriptionBytes`.
  package var descriptionHashes: [UInt64] = []

  public var count: Int { rows.count }

  package init(rows: [ImportedRow], fileOrder: [Int32], totals: MonthTotalDeltas, totalKeys: [Int64] = []) {
    self.rows = rows
    self.fileOrder = fileOrder
    self.totals = totals
    self.totalKeys = totalKeys
  }
}

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
  /// hashing its category again; it holds the row's currency code and its category's number in
  /// `totals.categories`, which a store looks up once per batch.
  package let totalKeys: [Int64]
  /// Whether a row has a `formerKey` (a statement's card payment): most batches have none.
  package let hasFormerKeys: Bool
  /// The rows' descriptions as UTF-8, one after another in row order, row `i`'s ending at
  /// `descriptionEnds[i]`, and each one's `TextHash`: copied when the batch is made, on the
  /// parse thread where the texts were made, so that a store reads them here instead of through
  /// each row (a reference taken to a text made on the other core is a cache miss on the
  /// writer's).
  package let descriptionBytes: [UInt8]
  package let descriptionEnds: [Int]
  package let descriptionHashes: [UInt64]

  public var count: Int { rows.count }

  /// `totalKeys`: each row's key in `totals`, by index in `rows`.
  package init(rows: [ImportedRow], fileOrder: [Int32], totals: MonthTotalDeltas, totalKeys: [Int64]) {
    self.rows = rows
    self.fileOrder = fileOrder
    self.totals = totals
    self.totalKeys = totalKeys
    var hasFormerKeys = false
    var bytes: [UInt8] = []
    var ends: [Int] = []
    var hashes: [UInt64] = []
    bytes.reserveCapacity(rows.count * 64)
    ends.reserveCapacity(rows.count)
    hashes.reserveCapacity(rows.count)
    // Fields read in place: `for row in rows` would copy (retain and release) every row.
    for i in rows.indices {
      if rows[i].formerKey != nil { hasFormerKeys = true }
      let start = bytes.count
      bytes.append(contentsOf: rows[i].description.utf8)
      ends.append(bytes.count)
      hashes.append(bytes.withUnsafeBufferPointer { TextHash.of(UnsafeBufferPointer(rebasing: $0[start...])) })
    }
    self.hasFormerKeys = hasFormerKeys
    descriptionBytes = bytes
    descriptionEnds = ends
    descriptionHashes = hashes
  }

  /// The row at `index`'s description bytes in `descriptionBytes` (as `descriptionBytes`'
  /// indices).
  package func descriptionRange(_ index: Int) -> Range<Int> {
    (index == 0 ? 0 : descriptionEnds[index - 1])..<descriptionEnds[index]
  }
}

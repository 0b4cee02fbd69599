import ExpenseCore

/// Cuts a stream of rows into `PreparedBatch`es. A batch ends at a day boundary once it has
/// `batchRows` rows (so a file in date order gives batches whose keys follow each other and
/// append at the end of the table), or at `maxRows` whatever the dates.
public struct ImportBatcher: Sendable {
  public static let batchRows = 1024
  public static let maxRows = 16_384

  var pending: [ImportedRow] = []
  /// Each row's category becomes its stored spelling here, on the parse thread, through this
  /// cache of raw spellings: no query per row (see `CategoryNames`). `nil` when rows arrive
  /// with their stored spelling already (the CSV importer maps each distinct cell once).
  var names: CategoryNames?

  /// `names`: the categories already stored (`AppDatabase.categoryNames()`); a category new to
  /// the database is stored with its first spelling in the file.
  public init(names: CategoryNames? = CategoryNames()) {
    self.names = names
    pending.reserveCapacity(ImportBatcher.batchRows)
  }

  /// Adds a row; returns the batch it closed, if any (the row itself opens the next one).
  public mutating func add(_ row: ImportedRow) throws(TotalOverflow) -> PreparedBatch? {
    var closed: PreparedBatch?
    if let last = pending.last,
      pending.count >= ImportBatcher.maxRows
        || (pending.count >= ImportBatcher.batchRows
          && ExpenseKey(rawValue: last.key).day != ExpenseKey(rawValue: row.key).day)
    {
      closed = try finish()
    }
    pending.append(row)
    if names != nil, let raw = row.category {
      // In place: copying the row to change it costs a retain per String field.
      let last = pending.count - 1
      pending[last].setCategory(names!.canonical(raw), source: pending[last].categorySource)
    }
    return closed
  }

  /// The rows not yet in a batch, as one (nil if there are none).
  public mutating func finish() throws(TotalOverflow) -> PreparedBatch? {
    guard !pending.isEmpty else { return nil }
    let count = pending.count
    var totals = MonthTotalDeltas()
    // Fields read in place: `for row in pending` would copy (retain and release) every row.
    for i in 0..<count {
      try totals.add(
        date: pending[i].date, amount: pending[i].amount, category: pending[i].category, line: pending[i].line)
    }
    var order = Array(0..<Int32(count))
    order.sort { a, b in
      let (x, y) = (pending[Int(a)].key, pending[Int(b)].key)
      return x != y ? x < y : a < b
    }
    var rows: [ImportedRow] = []
    rows.reserveCapacity(count)
    var fileOrder = [Int32](repeating: 0, count: count)
    for (sortedIndex, position) in order.enumerated() {
      rows.append(pending[Int(position)])
      fileOrder[Int(position)] = Int32(sortedIndex)
    }
    pending.removeAll(keepingCapacity: true)
    return PreparedBatch(rows: rows, fileOrder: fileOrder, totals: totals)
  }

}

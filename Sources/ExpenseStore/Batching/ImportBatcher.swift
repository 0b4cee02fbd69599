import ExpenseCore

/// Cuts a stream of rows into `PreparedBatch`es. A batch ends at a day boundary once it has
/// `batchRows` rows (so a file in date order gives batches whose keys follow each other and
/// append at the end of the table), or at `maxRows` whatever the dates.
public struct ImportBatcher: Sendable {
  public static let batchRows = 1024
  public static let maxRows = 16_384

  package var pending: [ImportedRow] = []
  /// The rows `pending` has room for (see `finish`).
  private var capacity = ImportBatcher.batchRows
  /// Each row's category becomes its stored spelling here, on the parse thread, through this
  /// cache of raw spellings: no query per row (see `CategoryNames`). `nil` when rows arrive
  /// with their stored spelling already (the CSV importer maps each distinct cell once).
  package var names: CategoryNames?

  /// `names`: the categories already stored (`AppDatabase.categoryNames()`); a category new to
  /// the database is stored with its first spelling in the file.
  public init(names: CategoryNames? = CategoryNames()) {
    self.names = names
    pending.reserveCapacity(ImportBatcher.batchRows)
  }

  /// Adds a row; returns the batch it closed, if any (the row itself opens the next one). The
  /// row is taken, not copied: a copy costs a retain per text of every row.
  public mutating func add(_ row: consuming ImportedRow) throws(TotalOverflow) -> PreparedBatch? {
    var closed: PreparedBatch?
    // The last row's key read in place: `pending.last` would copy the row.
    if let lastKey = pending.isEmpty ? nil : pending[pending.count - 1].key,
      pending.count >= ImportBatcher.maxRows
        || (pending.count >= ImportBatcher.batchRows
          && ExpenseKey(rawValue: lastKey).day != ExpenseKey(rawValue: row.key).day)
    {
      closed = try finish()
    }
    pending.append(row)
    let last = pending.count - 1
    if names != nil, let raw = pending[last].category {
      // In place: copying the row to change it costs a retain per String field.
      let source = pending[last].categorySource
      pending[last].setCategory(names?.canonical(raw), source: source)
    }
    return closed
  }

  /// The rows not yet in a batch, as one (nil if there are none).
  public mutating func finish() throws(TotalOverflow) -> PreparedBatch? {
    guard !pending.isEmpty else { return nil }
    let count = pending.count
    var totals = MonthTotalDeltas()
    // Each row's place in the sums, kept for the writer to take duplicates back out by key
    // (no second hash of its category). Fields read in place: `for row in pending` would copy
    // (retain and release) every row.
    var totalKeys = [Int64](repeating: 0, count: count)
    for i in 0..<count {
      totalKeys[i] = try totals.add(
        date: pending[i].date, amount: pending[i].amount, category: pending[i].category, line: pending[i].line)
    }
    // Sorted as (key, file position) pairs, not through the rows: a pair compares in a
    // register, a row would be read through the array on every comparison.
    var order = [SortKey]()
    order.reserveCapacity(count)
    for i in 0..<count { order.append(SortKey(key: pending[i].key, position: Int32(i))) }
    order.sort()
    var fileOrder = [Int32](repeating: 0, count: count)
    var sortedTotalKeys = [Int64](repeating: 0, count: count)
    for (sortedIndex, entry) in order.enumerated() {
      fileOrder[Int(entry.position)] = Int32(sortedIndex)
      sortedTotalKeys[sortedIndex] = totalKeys[Int(entry.position)]
    }
    ImportBatcher.permute(&pending, into: order)
    let rows = pending
    pending = []
    // Room for a batch as long as this one: a batch ends at the first new day past
    // `batchRows`, so most are longer, and an array grown past its capacity copies every row.
    capacity = min(max(capacity, count), ImportBatcher.maxRows)
    pending.reserveCapacity(capacity)
    return PreparedBatch(rows: rows, fileOrder: fileOrder, totals: totals, totalKeys: sortedTotalKeys)
  }

  /// Puts `rows` in the order of `order` (position `k` takes the row at `order[k].position`)
  /// in place, by cycles of moves through raw memory, then hands them over whole: no row is
  /// copied. (`swapAt` copied each row it moved, a retain and a release per text: 4% of the
  /// parse thread on a million rows, by perf.)
  static func permute(_ rows: inout [ImportedRow], into order: [SortKey]) {
    let count = rows.count
    var done = [Bool](repeating: false, count: count)
    rows.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      for start in 0..<count where !done[start] {
        var k = start
        done[k] = true
        var source = Int(order[k].position)
        guard source != start else { continue }
        // The cycle's first row is held aside; each place then takes its row from the next.
        let first = (base + start).move()
        while source != start {
          (base + k).moveInitialize(from: base + source, count: 1)
          k = source
          done[k] = true
          source = Int(order[k].position)
        }
        (base + k).initialize(to: first)
      }
    }
  }

  /// A row's key and file position: sorting by both keeps the file's first of two equal keys first.
  package struct SortKey: Comparable {
    let key: Int64
    let position: Int32

    package static func < (a: SortKey, b: SortKey) -> Bool {
      a.key != b.key ? a.key < b.key : a.position < b.position
    }
  }
}

import ExpenseCore

/// One row to import, in the store's terms: built on the parse thread.
public struct ImportRow: Sendable {
  /// The table key: the day and 43 bits of the fingerprint hash (see `ImportSession.key`).
  public var key: Int64
  public var date: CivilDate
  /// Signed amount: negative is money out.
  public var amount: Money
  public var description: String
  public var category: String?
  public var account: String?
  /// The 1-based line of the record in its file.
  public var line: Int
  /// Where `category` came from: the file unless said otherwise (a rule), none without one.
  public var categorySource: CategorySource

  public init(
    date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprintHash: UInt64, line: Int, categorySource: CategorySource? = nil
  ) {
    key = ImportSession.key(date: date, fingerprintHash: fingerprintHash)
    self.date = date
    self.amount = amount
    self.description = description
    self.category = category
    self.account = account
    self.line = line
    self.categorySource = category == nil ? .none : categorySource ?? .file
  }
}

/// Rows grouped for one write: sorted by key, with their file order and their sums. Everything
/// here needs no database, so it is built on the parse thread and the writer only checks, numbers
/// and inserts.
public struct PreparedBatch: Sendable {
  /// Sorted by key, then by file position (so of two rows with one key the first is kept).
  var rows: [ImportRow]
  /// `fileOrder[k]` is the index in `rows` of the batch's k-th row in file order.
  var fileOrder: [Int32]
  /// Sums of every row; the writer takes the duplicates back out.
  var totals: MonthTotalDeltas

  public var count: Int { rows.count }
}

/// Cuts a stream of rows into `PreparedBatch`es. A batch ends at a day boundary once it has
/// `batchRows` rows (so a file in date order gives batches whose keys follow each other and
/// append at the end of the table), or at `maxRows` whatever the dates.
public struct ImportBatcher: Sendable {
  public static let batchRows = 1024
  public static let maxRows = 16_384

  var pending: [ImportRow] = []
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
  public mutating func add(_ row: ImportRow) throws(TotalOverflow) -> PreparedBatch? {
    var closed: PreparedBatch?
    if let last = pending.last,
      pending.count >= ImportBatcher.maxRows
        || (pending.count >= ImportBatcher.batchRows && last.key >> 43 != row.key >> 43)
    {
      closed = try finish()
    }
    pending.append(row)
    if names != nil, let raw = row.category {
      // In place: copying the row to change it costs a retain per String field.
      let last = pending.count - 1
      pending[last].category = names!.canonical(raw)
      if pending[last].category == nil { pending[last].categorySource = .none }
    }
    return closed
  }

  /// The rows not yet in a batch, as one (nil if there are none).
  public mutating func finish() throws(TotalOverflow) -> PreparedBatch? {
    guard !pending.isEmpty else { return nil }
    var totals = MonthTotalDeltas()
    for row in pending { try totals.add(date: row.date, amount: row.amount, category: row.category, line: row.line) }
    var order = Array(0..<Int32(pending.count))
    order.sort { a, b in
      let (x, y) = (pending[Int(a)].key, pending[Int(b)].key)
      return x != y ? x < y : a < b
    }
    var rows: [ImportRow] = []
    rows.reserveCapacity(pending.count)
    var fileOrder = [Int32](repeating: 0, count: pending.count)
    for (sortedIndex, position) in order.enumerated() {
      rows.append(pending[Int(position)])
      fileOrder[Int(position)] = Int32(sortedIndex)
    }
    pending.removeAll(keepingCapacity: true)
    return PreparedBatch(rows: rows, fileOrder: fileOrder, totals: totals)
  }
}

import ExpenseCore
import ExpenseStore
import PostgresNIO

/// Writes one file's rows inside the import's one transaction (`PostgresStore.importRows`).
///
/// Batches are gathered up to `flushRows` rows, then two round trips: one read of the keys
/// already stored (`storedKeys`: a key range per batch, with their source, to explain
/// duplicates), then the new rows, numbered in file order, go in as ONE `COPY expense FROM
/// STDIN` (`CopyText`, `BlockingConnection.startCopy`), which runs while the writer gathers the
/// next flush (awaited before the writer's next statement, `settle`). The rollup and the
/// checks of the rows' ledger and file follow by the expense triggers, in the same
/// transaction, once per statement. Why this shape (measured in docs/performance.md): a
/// `COPY` costs the server a fraction of an `INSERT … SELECT FROM unnest(…)` of the same rows,
/// and a range read per sorted batch a fraction of one index search per key.
final class PostgresImportWriter: ImportWriter {
  let store: PostgresStore
  let connection: BlockingConnection
  let sourceFile: String
  let fileID: Int64
  let explainLimit: Int
  var onOutcome: ((_ row: ImportedRow, _ outcome: ImportOutcome) -> Void)?
  var onBatchWritten: ((_ batch: PreparedBatch, _ isNew: [Bool]) -> Void)?
  var inserted = 0
  private(set) var duplicates = 0
  private(set) var explained: [ImportDuplicate] = []
  private(set) var firstDate: CivilDate?
  private(set) var lastDate: CivilDate?
  private(set) var recordID: Int64?
  /// The ledger's next expense id: the import holds the ledger's lock, so its ids are consecutive.
  var nextID: Int64
  let firstID: Int64
  /// The split transaction being read, saved to `split_part` a set at a time.
  var splits = SplitSets()
  /// The days the new ids are stored on (`expense_id_run`), written after each flush's rows.
  var runs = PostgresIdRuns()

  /// A dry run (`--dry-run`, `--preview`): inside a read-only transaction, every row is
  /// classified against the stored rows as the import would, and nothing is written, so the
  /// dry run takes no lock a writer waits for.
  let dryRun: Bool
  /// The days of the rows stored before this import (see `ImportWriter.storedSpan`).
  let storedSpan: ClosedRange<CivilDate>?
  /// A dry run's keys of earlier flushes (the real import finds them stored).
  private var earlier: [Int64: Int] = [:]

  init(
    store: PostgresStore, connection: BlockingConnection, sourceFile: String, explainLimit: Int, dryRun: Bool = false
  ) throws {
    self.store = store
    self.connection = connection
    self.sourceFile = sourceFile
    self.explainLimit = explainLimit
    self.dryRun = dryRun
    fileID = dryRun ? 0 : try store.fileID(connection, name: sourceFile)
    let rows = try connection.query("SELECT next_expense_id FROM ledger WHERE id = \(store.ledger)")
    nextID = try rows.first?.decode(Int64.self) ?? 1
    firstID = nextID
    storedSpan = try Self.storedSpan(connection, ledger: store.ledger)
  }

  /// Rows gathered before one lookup and one insert: the batcher cuts about 1,024 rows a
  /// batch (SQLite's best), while each PostgreSQL statement costs a round trip and a run of the
  /// rollup trigger, so several batches go together (measured: `Benchmarks/postgres-import.py`).
  static let flushRows = 16_384
  private var pending: [PreparedBatch] = []
  private var pendingRows = 0
  /// Whether every row of the last flush was new (see `allNewText`).
  private var lastFlushAllNew = true

  /// None: the parse thread has no connection of its own, and a flush reads the stored keys
  /// of 16 batches in one round trip.
  func storedKeysBefore() throws -> (any StoredKeys)? { nil }

  func closeStoredKeys() {}

  /// Counted, and the first ones explained from one lookup of their keys.
  func recordStored(_ rows: [StoredRow]) throws {
    duplicates += rows.count
    let explaining = rows.prefix(max(0, explainLimit - explained.count))
    guard !explaining.isEmpty else { return }
    let found = try connection.query(
      """
      SELECT e.key, f.name, e.source_line FROM expense e
      LEFT JOIN import_file f ON f.ledger_id = e.ledger_id AND f.id = e.file_id
      WHERE e.ledger_id = \(store.ledger) AND e.key = ANY(\(explaining.map(\.key)))
      """)
    var sources: [Int64: String] = [:]
    for row in found {
      let (key, file, line) = try row.decode((Int64, String?, Int64?).self)
      sources[key] = file.map { "\($0):\(line ?? 0)" } ?? "added by hand"
    }
    for row in explaining {
      explained.append(ImportDuplicate(line: row.line, existingSource: sources[row.key] ?? "added by hand"))
    }
  }

  func write(_ batch: PreparedBatch) throws {
    guard !batch.rows.isEmpty else { return }
    pending.append(batch)
    pendingRows += batch.rows.count
    if pendingRows >= Self.flushRows { try flush() }
  }

  /// Writes the gathered batches: one read of their keys already stored (`storedKeys`), then
  /// their new rows, numbered in each batch's file order, batch after batch, in one `COPY`.
  func flush() throws {
    // The text of the `COPY` as it is when every row is new (a first import's are), made while
    // the server still stores the flush before: the server then waits only for the stored
    // keys' read, not for the text. Used only when the rows all turn out new; made only while
    // the flush before was all new (a file imported again stops making it after one flush).
    let speculative = dryRun || !lastFlushAllNew ? nil : allNewText()
    try settle()
    guard !pending.isEmpty else { return }
    defer {
      pending.removeAll(keepingCapacity: true)
      pendingRows = 0
    }
    // Keys already stored, with where they came from.
    let stored = try storedKeys()
    // Keys this flush adds, with their line: a later batch's twin is a duplicate of that row.
    var added: [Int64: Int] = dryRun ? earlier : [:]
    var fresh: [ImportedRow] = []
    var freshIDs: [Int64] = []
    fresh.reserveCapacity(pendingRows)
    freshIDs.reserveCapacity(pendingRows)
    for batch in pending {
      let rows = batch.rows
      var isNew = rows.map { row in
        stored[row.key] == nil && added[row.key] == nil && row.formerKey.map { stored[$0] == nil } != false
      }
      var twins: [Int: Int] = [:]
      for i in rows.indices.dropFirst() where rows[i].key == rows[i - 1].key {
        isNew[i] = false
        twins[i] = i - 1
      }
      let ids = Self.fileOrderIDs(batch, from: &nextID) { isNew[$0] }
      var first: Int?
      var last: Int?
      for index in rows.indices where isNew[index] {
        fresh.append(rows[index])
        freshIDs.append(ids[index])
        added[rows[index].key] = rows[index].line
        first = first ?? index
        last = index
      }
      let count = isNew.lazy.filter { $0 }.count
      inserted += count
      duplicates += rows.count - count
      if let first, let last {
        let (low, high) = (rows[first].date, rows[last].date)
        if firstDate.map({ low < $0 }) ?? true { firstDate = low }
        if lastDate.map({ high > $0 }) ?? true { lastDate = high }
      }
      for position in batch.fileOrder {
        let index = Int(position)
        if isNew[index] && !dryRun { runs.add(id: ids[index], day: ExpenseKey(rawValue: rows[index].key).day) }
        if isNew[index] && rows[index].splitGroup != 0 {
          try addSplitPart(group: rows[index].splitGroup, id: ids[index])
        }
        onOutcome?(rows[index], isNew[index] ? .inserted : .duplicate)
        if !isNew[index] && explained.count < explainLimit {
          let source =
            twins[index].map { "\(sourceFile):\(rows[$0].line)" } ?? stored[rows[index].key]
            ?? added[rows[index].key].map { "\(sourceFile):\($0)" } ?? rows[index].formerKey.flatMap { stored[$0] }
            ?? "?"
          explained.append(ImportDuplicate(line: rows[index].line, existingSource: source))
        }
      }
      onBatchWritten?(batch, isNew)
    }
    lastFlushAllNew = fresh.count == pendingRows
    if dryRun {
      earlier = added
    } else if let speculative, fresh.count == pendingRows {
      try startCopy(speculative)
    } else if !fresh.isEmpty {
      try insert(fresh, ids: freshIDs)
    }
  }

  /// The `COPY` text of every pending row, numbered from `nextID` in each batch's file order,
  /// batch after batch, in key order within a batch: what `insert` makes when all are new.
  /// Nil when a date is outside the supported range (`insert` then refuses it in order).
  func allNewText() -> CopyText? {
    guard !pending.isEmpty else { return nil }
    let text = CopyText()
    var next = nextID
    for batch in pending {
      let ids = Self.fileOrderIDs(batch, from: &next) { _ in true }
      for index in batch.rows.indices {
        guard batch.rows[index].date.isSupported else { return nil }
        append(batch.rows[index], id: ids[index], to: text)
      }
    }
    return text
  }

  /// The ids of `batch`'s rows that `isNew` keeps, numbered from `next` on in the batch's file
  /// order (0 for the others), by index in `batch.rows`.
  static func fileOrderIDs(_ batch: PreparedBatch, from next: inout Int64, isNew: (Int) -> Bool) -> [Int64] {
    var ids = [Int64](repeating: 0, count: batch.rows.count)
    for position in batch.fileOrder {
      let index = Int(position)
      guard isNew(index) else { continue }
      ids[index] = next
      next += 1
    }
    return ids
  }

  /// Keys of the pending batches already stored, with where each came from (`file:line`, or
  /// "added by hand"). One statement reads, for every batch, the stored keys in its key range
  /// (a batch is sorted by key: for a file in date order its range holds few other rows, none
  /// on a first import); a batch whose range holds more than `4 × rows + 64` others (a file
  /// not in date order) is looked up key by key in a second statement instead, as the SQLite
  /// store does (`ImportBatch.markStored`).
  func storedKeys() throws -> [Int64: String] {
    var stored: [Int64: String] = [:]
    func keep(_ key: Int64, _ file: String?, _ line: Int64?) {
      stored[key] = file.map { "\($0):\(line ?? 0)" } ?? "added by hand"
    }
    let caps = pending.map { Int64(4 * $0.rows.count + 64) }
    let ranges = try connection.query(
      """
      SELECT r.n, e.key, f.name, e.source_line
      FROM unnest(\(pending.map { $0.rows.first?.key ?? 0 }), \(pending.map { $0.rows.last?.key ?? 0 }), \(caps))
        WITH ORDINALITY AS r(low, high, cap, n)
      CROSS JOIN LATERAL (
        SELECT x.key, x.file_id, x.source_line FROM expense x
        WHERE x.ledger_id = \(store.ledger) AND x.key BETWEEN r.low AND r.high ORDER BY x.key LIMIT r.cap) e
      LEFT JOIN import_file f ON f.ledger_id = \(store.ledger) AND f.id = e.file_id
      """)
    var found = [Int64](repeating: 0, count: pending.count)
    for row in ranges {
      let (n, key, file, line) = try row.decode((Int64, Int64, String?, Int64?).self)
      if let index = Int(exactly: n), index >= 1, index <= found.count { found[index - 1] += 1 }
      keep(key, file, line)
    }
    let crowded = pending.indices.filter { found[$0] >= caps[$0] }
    // Rows an earlier version stored under another key (`ImportedRow.formerKey`) are looked up
    // by that key too.
    let former = pending.flatMap { $0.rows.compactMap(\.formerKey) }
    guard !crowded.isEmpty || !former.isEmpty else { return stored }
    let rows = try connection.query(
      """
      SELECT e.key, f.name, e.source_line FROM expense e
      LEFT JOIN import_file f ON f.ledger_id = e.ledger_id AND f.id = e.file_id
      WHERE e.ledger_id = \(store.ledger)
        AND e.key = ANY(\(crowded.flatMap { pending[$0].rows.map(\.key) } + former))
      """)
    for row in rows {
      let (key, file, line) = try row.decode((Int64, String?, Int64?).self)
      keep(key, file, line)
    }
    return stored
  }

  /// One `COPY` for the flush's new rows.
  func insert(_ rows: [ImportedRow], ids: [Int64]) throws {
    for row in rows where !row.date.isSupported { throw CoreError.dateOutOfRange(row.date.description) }
    let text = CopyText()
    for index in rows.indices { append(rows[index], id: ids[index], to: text) }
    try startCopy(text)
  }

  /// One row of `expense_incoming`, in `columns` order.
  func append(_ row: ImportedRow, id: Int64, to text: CopyText) {
    let account = row.account
    let category = row.category
    text.reserve(
      12 * CopyText.fieldBytes + CopyText.textBytes(row.description.utf8.count)
        + CopyText.textBytes(row.amount.currency.code.utf8.count)
        + CopyText.textBytes(category?.utf8.count ?? 2) + CopyText.textBytes(account?.utf8.count ?? 2))
    text.integer(store.ledger)
    text.integer(row.key)
    text.integer(id)
    text.date(row.date)
    text.integer(row.amount.minor)
    text.text(row.amount.currency.code)
    text.text(row.description)
    if let category { text.text(category) } else { text.null() }
    if let account { text.text(account) } else { text.null() }
    text.integer(fileID)
    text.integer(Int64(row.line))
    text.integer(Int64(row.categorySource.rawValue))
    text.endRow()
  }

  /// Starts the `COPY` of `text` into the staging table (made at the first).
  func startCopy(_ text: CopyText) throws {
    if !staging {
      try connection.execute(
        "CREATE TEMP TABLE IF NOT EXISTS expense_incoming (LIKE expense INCLUDING DEFAULTS) ON COMMIT DELETE ROWS")
      staging = true
    }
    copying = connection.startCopy(into: "expense_incoming", columns: Self.columns, data: text.finish())
  }

  /// Whether `expense_incoming` exists in this transaction.
  ///
  /// Why the rows pass through it: PostgreSQL refuses `COPY FROM` into a table under row-level
  /// security for a session it applies to (every store's session, connected as the ordinary
  /// role a deployment uses), so the rows are copied into this temporary table of the session
  /// (no policy, no index, no trigger), then moved into `expense` by one `INSERT … SELECT`, to
  /// which the policy, the unique keys and the rollup triggers apply as to any insert.
  private var staging = false

  /// The `COPY` of the last flush while it runs: the writer goes back to gathering the next
  /// batches (and the parse thread to parsing) while the server stores these rows, and waits
  /// for it (`settle`) before its next statement.
  private var copying: EventLoopFuture<Void>?

  /// Waits for the running `COPY`, if any; its error is the import's.
  func settle() throws {
    guard let copy = copying else { return }
    copying = nil
    try connection.wait(for: copy)
    let columns = Self.columns.joined(separator: ", ")
    try connection.execute("INSERT INTO expense (\(columns)) SELECT \(columns) FROM expense_incoming")
    try connection.execute("TRUNCATE expense_incoming")
    try runs.write(connection, ledger: store.ledger, all: false)
  }

  /// After the import failed elsewhere: waits for the running `COPY` (the transaction's
  /// rollback must come after it) and returns its error, which is earlier in the file than
  /// any error met since, so it is the one to report, as if it had been awaited at once.
  func abandon() -> (any Error)? {
    do {
      try settle()
      return nil
    } catch {
      return error
    }
  }

  /// `expense`'s columns in the order `insert` writes them.
  static let columns = [
    "ledger_id", "key", "id", "date", "amount_minor", "currency", "description", "category", "account", "file_id",
    "source_line", "category_source",
  ]

  func addSplitPart(group: Int, id: Int64) throws {
    guard !dryRun else { return }
    if let ended = splits.add(group: group, id: id) { try save(ended) }
  }

  /// Records the parts of the split being read (see `SplitSets.finish`).
  func saveSplitParts() throws {
    if let set = splits.finish() { try save(set) }
  }

  private func save(_ set: SplitSets.Set) throws {
    try connection.query(
      """
      INSERT INTO split_part (ledger_id, id, set_id)
      SELECT \(store.ledger), id, \(set.id) FROM unnest(\(set.parts)) AS u(id)
      """)
  }

  func saveProfile(name: String, json: String) throws {
    guard !dryRun else { return }
    try settle()
    try store.saveProfile(connection, name: name, json: json)
  }

  func addRecord(kind: String, body: String) throws {
    guard !dryRun else { return }
    try settle()
    _ = try store.addRecord(connection, kind: kind, body: body)
  }

  func markTransfers(_ categories: Set<String>) throws {
    guard !dryRun else { return }
    try settle()
    for name in categories.sorted() {
      try connection.query(
        """
        INSERT INTO category_kind (ledger_id, name, kind) VALUES (\(store.ledger), \(name), \(CategoryKind.transfer.rawValue))
        ON CONFLICT (ledger_id, name) DO NOTHING
        """)
    }
  }

  /// Rows an import adds before it refreshes the planner's statistics of `expense`.
  static let analyzeAfter = 10_000

  /// Saves the id counter and, when rows were added, records the import.
  func finish(importedAt: String?) throws {
    try flush()
    guard !dryRun else { return }
    try settle()
    try runs.write(connection, ledger: store.ledger, all: true)
    try saveSplitParts()
    try connection.query("UPDATE ledger SET next_expense_id = \(nextID) WHERE id = \(store.ledger)")
    // Rows taken back as probable duplicates keep their ids spent but are not in the record.
    guard inserted > 0, let firstDate, let lastDate else { return }
    // A large import leaves the planner guessing until autovacuum comes by (minutes on a new
    // database): the next search or report would sort on disk. Sampling takes a fraction of
    // a second (30,000 rows); a role that does not own the table is only warned.
    if inserted >= Self.analyzeAfter { try connection.execute("ANALYZE expense") }
    let rows = try connection.query(
      """
      INSERT INTO import_record (ledger_id, file, imported_at, rows, first_id, last_id, first_date, last_date)
      VALUES (\(store.ledger), \(sourceFile), \(importedAt), \(Int64(inserted)), \(firstID), \(nextID - 1),
              \(firstDate.description)::date, \(lastDate.description)::date)
      RETURNING id
      """)
    recordID = try rows.first?.decode(Int64.self)
  }
}

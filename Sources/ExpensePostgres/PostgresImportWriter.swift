import ExpenseCore
import ExpenseStore
import PostgresNIO

/// Writes one file's rows inside the import's one transaction (`PostgresStore.importRows`).
///
/// Batches are gathered up to `flushRows` rows, then two round trips: one
/// `SELECT … WHERE key = ANY($keys)` finds the keys already stored (with their source, to
/// explain duplicates), then the new rows, numbered in file order, go in as ONE
/// `INSERT … SELECT FROM unnest($keys, $ids, …)`: a fixed statement whatever the size, each
/// column bound as one array. The rollup follows by the expense trigger, in the same
/// transaction, once per statement. (Why not `COPY`: see `BlockingConnection` and
/// docs/performance.md.)
final class PostgresImportWriter: ImportWriter {
  let store: PostgresStore
  let connection: BlockingConnection
  let sourceFile: String
  let fileID: Int64
  let explainLimit: Int
  var onOutcome: ((_ row: ImportedRow, _ outcome: ImportOutcome) -> Void)?
  private(set) var inserted = 0
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

  init(store: PostgresStore, connection: BlockingConnection, sourceFile: String, explainLimit: Int) throws {
    self.store = store
    self.connection = connection
    self.sourceFile = sourceFile
    self.explainLimit = explainLimit
    fileID = try store.fileID(connection, name: sourceFile)
    let rows = try connection.query("SELECT next_expense_id FROM ledger WHERE id = \(store.ledger)")
    nextID = try rows.first?.decode(Int64.self) ?? 1
    firstID = nextID
  }

  /// Rows gathered before one lookup and one insert: the batcher cuts about 1,024 rows a
  /// batch (SQLite's best), while each PostgreSQL statement costs a round trip and a run of the
  /// rollup trigger, so several batches go together (measured: `Benchmarks/postgres-import.py`).
  static let flushRows = 16_384
  private var pending: [PreparedBatch] = []
  private var pendingRows = 0

  func write(_ batch: PreparedBatch) throws {
    guard !batch.rows.isEmpty else { return }
    pending.append(batch)
    pendingRows += batch.rows.count
    if pendingRows >= Self.flushRows { try flush() }
  }

  /// Writes the gathered batches: one `SELECT … key = ANY($keys)` for all their keys, then
  /// their new rows, numbered in each batch's file order, batch after batch, in one `INSERT`.
  func flush() throws {
    guard !pending.isEmpty else { return }
    defer {
      pending.removeAll(keepingCapacity: true)
      pendingRows = 0
    }
    // Keys already stored, with where they came from.
    var stored: [Int64: String] = [:]
    let found = try connection.query(
      """
      SELECT e.key, f.name, e.source_line FROM expense e
      LEFT JOIN import_file f ON f.ledger_id = e.ledger_id AND f.id = e.file_id
      WHERE e.ledger_id = \(store.ledger) AND e.key = ANY(\(pending.flatMap { $0.rows.map(\.key) }))
      """)
    for row in found {
      let (key, file, line) = try row.decode((Int64, String?, Int64?).self)
      stored[key] = file.map { "\($0):\(line ?? 0)" } ?? "added by hand"
    }
    // Keys this flush adds, with their line: a later batch's twin is a duplicate of that row.
    var added: [Int64: Int] = [:]
    var fresh: [ImportedRow] = []
    var freshIDs: [Int64] = []
    fresh.reserveCapacity(pendingRows)
    freshIDs.reserveCapacity(pendingRows)
    for batch in pending {
      let rows = batch.rows
      var isNew = rows.map { stored[$0.key] == nil && added[$0.key] == nil }
      var twins: [Int: Int] = [:]
      for i in rows.indices.dropFirst() where rows[i].key == rows[i - 1].key {
        isNew[i] = false
        twins[i] = i - 1
      }
      // Ids in file order.
      var ids = [Int64](repeating: 0, count: rows.count)
      for position in batch.fileOrder {
        let index = Int(position)
        guard isNew[index] else { continue }
        ids[index] = nextID
        nextID += 1
      }
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
        if isNew[index] && rows[index].splitGroup != 0 {
          try addSplitPart(group: rows[index].splitGroup, id: ids[index])
        }
        onOutcome?(rows[index], isNew[index] ? .inserted : .duplicate)
        if !isNew[index] && explained.count < explainLimit {
          let source =
            twins[index].map { "\(sourceFile):\(rows[$0].line)" } ?? stored[rows[index].key]
            ?? added[rows[index].key].map { "\(sourceFile):\($0)" } ?? "?"
          explained.append(ImportDuplicate(line: rows[index].line, existingSource: source))
        }
      }
    }
    if !fresh.isEmpty { try insert(fresh, ids: freshIDs) }
  }

  /// One statement for the batch's new rows, each column an array.
  func insert(_ rows: [ImportedRow], ids: [Int64]) throws {
    for row in rows where !row.date.isSupported { throw CoreError.dateOutOfRange(row.date.description) }
    try connection.query(
      """
      INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, category, account,
                           file_id, source_line, category_source)
      SELECT \(store.ledger), u.key, u.id, u.date::date, u.minor, u.currency, u.description,
             CASE WHEN u.has_category THEN u.category END, CASE WHEN u.has_account THEN u.account END,
             \(fileID), u.line, u.source
      FROM unnest(\(rows.map(\.key)), \(ids), \(rows.map(\.date.description)), \(rows.map(\.amount.minor)),
                  \(rows.map(\.amount.currency.code)), \(rows.map(\.description)), \(rows.map { $0.category ?? "" }),
                  \(rows.map { $0.category != nil }), \(rows.map { $0.account ?? "" }), \(rows.map { $0.account != nil }),
                  \(rows.map { Int64($0.line) }), \(rows.map { Int16($0.categorySource.rawValue) }))
        AS u(key, id, date, minor, currency, description, category, has_category, account, has_account, line, source)
      """)
  }

  func addSplitPart(group: Int, id: Int64) throws {
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
    try store.saveProfile(connection, name: name, json: json)
  }

  func markTransfers(_ categories: Set<String>) throws {
    for name in categories.sorted() {
      try connection.query(
        """
        INSERT INTO category_kind (ledger_id, name, kind) VALUES (\(store.ledger), \(name), \(CategoryKind.transfer.rawValue))
        ON CONFLICT (ledger_id, name) DO NOTHING
        """)
    }
  }

  /// Saves the id counter and, when rows were added, records the import.
  func finish(importedAt: String?) throws {
    try flush()
    try saveSplitParts()
    try connection.query("UPDATE ledger SET next_expense_id = \(nextID) WHERE id = \(store.ledger)")
    guard nextID > firstID, let firstDate, let lastDate else { return }
    let rows = try connection.query(
      """
      INSERT INTO import_record (ledger_id, file, imported_at, rows, first_id, last_id, first_date, last_date)
      VALUES (\(store.ledger), \(sourceFile), \(importedAt), \(nextID - firstID), \(firstID), \(nextID - 1),
              \(firstDate.description)::date, \(lastDate.description)::date)
      RETURNING id
      """)
    recordID = try rows.first?.decode(Int64.self)
  }
}

import ExpenseCore
import GRDB
import GRDBSQLite

/// Writes one file's rows inside one transaction: all of a file or none of it.
///
/// The hot path of a bulk import. Rows are queued and written in batches: each batch is sorted
/// by key, checked against the stored rows with ONE range read (a point lookup per row only when
/// the batch spans too much of the table), and inserted by a prepared multi-row `INSERT` reused
/// for every batch, with texts bound from a reusable byte arena (no copy inside SQLite). Batches
/// end at a day boundary, so a file in date order appends at the right edge of the table.
public final class ImportSession {
  /// What happened to one row.
  public enum Outcome: Sendable, Equatable {
    case inserted
    case duplicate
  }

  /// A row skipped as a duplicate and the stored row it duplicates, for the summary.
  public struct Duplicate: Sendable, Hashable, Codable {
    /// Line in the file being imported.
    public var line: Int
    /// Where the stored twin came from (`file:line`, or `added by hand`).
    public var existingSource: String

    public init(line: Int, existingSource: String) {
      self.line = line
      self.existingSource = existingSource
    }
  }

  /// One queued row.
  struct Pending {
    var key: Int64
    var date: CivilDate
    var amount: Money
    var description: String
    var category: String?
    var account: String?
    var line: Int
  }

  /// Rows per multi-row `INSERT` (9 parameters each, far below SQLite's limit).
  static let rowsPerStatement = 64
  /// A batch is written once it has this many rows and the day changes...
  static let batchRows = 512
  /// ...or at this size whatever the dates (one day with very many rows).
  static let maxBatchRows = 16_384

  let db: Database
  let sourceFile: String
  let insertMany: Statement
  let insertOne: Statement
  let existingInRange: Statement
  let existsKey: Statement
  let findTwin: Statement
  /// How many duplicates keep their explanation; beyond it they are only counted.
  public let explainLimit: Int
  /// Called for every row, in file order, once its batch is written (a dry run's preview).
  public var onOutcome: ((_ line: Int, _ outcome: Outcome) -> Void)?
  public private(set) var inserted = 0
  public private(set) var duplicates = 0
  public private(set) var explained: [Duplicate] = []
  /// The next user-facing expense id (from `counter`), saved back by `finish`.
  var nextID: Int64
  /// This file's sums per (month, currency, category), added to `monthTotal` by `finish`: an
  /// import only adds rows, so the rollup is updated without reading the expenses back.
  var totals = MonthTotalDeltas()
  var pending: [Pending] = []
  /// Reused per batch: the sort order, the outcome of each queued row, the text arena.
  var order: [Int] = []
  var isNew: [Bool] = []
  var arena: [UInt8] = []
  var spans: [(parameter: Int32, bytes: Range<Int>?)] = []

  init(db: Database, sourceFile: String, explainLimit: Int) throws {
    self.db = db
    self.sourceFile = sourceFile
    self.explainLimit = explainLimit
    try db.execute(sql: "INSERT OR IGNORE INTO importFile (name) VALUES (?)", arguments: [sourceFile])
    let fileID = try Int64.fetchOne(db, sql: "SELECT id FROM importFile WHERE name = ?", arguments: [sourceFile]) ?? 0
    nextID = try AppDatabase.nextExpenseID(db)
    let columns = "(key, id, date, amountMinor, currency, description, category, account, fileId, sourceLine)"
    let values = "(?, ?, ?, ?, ?, ?, ?, ?, \(fileID), ?)"
    insertMany = try db.makeStatement(
      sql: "INSERT INTO expense \(columns) VALUES "
        + Array(repeating: values, count: ImportSession.rowsPerStatement).joined(separator: ", "))
    insertOne = try db.makeStatement(sql: "INSERT INTO expense \(columns) VALUES \(values)")
    existingInRange = try db.makeStatement(
      sql: "SELECT key FROM expense WHERE key BETWEEN ? AND ? ORDER BY key LIMIT ?")
    existsKey = try db.makeStatement(sql: "SELECT 1 FROM expense WHERE key = ?")
    findTwin = try db.makeStatement(
      sql: """
        SELECT f.name AS sourceFile, e.sourceLine FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
        WHERE e.key = ?
        """)
    pending.reserveCapacity(ImportSession.batchRows)
  }

  /// The stored key of an imported row: the day in the high 20 bits and 43 bits of the
  /// fingerprint hash below. It is the expense table's INTEGER PRIMARY KEY, so the table is
  /// clustered by date and a duplicate is a key that is already there.
  public static func key(date: CivilDate, fingerprintHash: UInt64) -> Int64 {
    let day = Int64(date.daysSinceEpoch + (1 << 19)) & 0xF_FFFF
    return day << 43 | Int64(fingerprintHash & ((1 << 43) - 1))
  }

  /// The keys of every day of `month`: a month is one range of the table.
  static func keyRange(_ month: Month) -> ClosedRange<Int64> {
    key(date: month.firstDay, fingerprintHash: 0)...key(date: month.lastDay, fingerprintHash: .max)
  }

  /// A key on `day` no row uses yet, for rows that have no fingerprint (added by hand): `seed`
  /// spread over the hash bits, then the next free slot.
  static func freeKey(_ db: Database, on day: CivilDate, seed: Int64, table: String = "expense") throws -> Int64 {
    var mixed = UInt64(bitPattern: seed) &* 0x9E37_79B9_7F4A_7C15
    mixed ^= mixed >> 29
    var key = ImportSession.key(date: day, fingerprintHash: mixed)
    while try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE key = ?", arguments: [key]) == true { key += 1 }
    return key
  }

  /// Queues one row; it is stored unless its key already is (in the database or earlier in
  /// this file). Outcomes are known when the batch is written (`onOutcome`, the counters).
  public func insert(
    date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprintHash: UInt64, line: Int
  ) throws {
    let key = ImportSession.key(date: date, fingerprintHash: fingerprintHash)
    if let last = pending.last,
      pending.count >= ImportSession.maxBatchRows
        || (pending.count >= ImportSession.batchRows && last.key >> 43 != key >> 43)
    {
      try flush()
    }
    pending.append(
      Pending(
        key: key, date: date, amount: amount, description: description, category: category, account: account,
        line: line))
  }

  /// Writes the queued rows.
  public func flush() throws {
    guard !pending.isEmpty else { return }
    order.removeAll(keepingCapacity: true)
    order.append(contentsOf: pending.indices)
    // Stable by line within a key: the first of two rows with one key is the one kept.
    order.sort { pending[$0].key != pending[$1].key ? pending[$0].key < pending[$1].key : $0 < $1 }
    isNew.removeAll(keepingCapacity: true)
    isNew.append(contentsOf: repeatElement(true, count: pending.count))
    try markStored()
    var twinInFile: [Int: Int] = [:]  // pending index -> index of its earlier twin, for explanations
    var previous: Int?
    for index in order {
      if let previous, pending[previous].key == pending[index].key {
        isNew[index] = false
        if twinInFile.count < explainLimit { twinInFile[index] = previous }
      } else {
        previous = index
      }
    }
    // Ids in file order; rows written in key order.
    var ids = [Int64](repeating: 0, count: pending.count)
    for index in pending.indices where isNew[index] {
      ids[index] = nextID
      nextID += 1
    }
    try write(ids: ids)
    for index in pending.indices {
      let row = pending[index]
      if isNew[index] {
        inserted += 1
        totals.add(date: row.date, amount: row.amount, category: row.category)
        onOutcome?(row.line, .inserted)
        continue
      }
      duplicates += 1
      if explained.count < explainLimit {
        let source: String
        if let twin = twinInFile[index] {
          source = "\(sourceFile):\(pending[twin].line)"
        } else {
          let stored = try Row.fetchOne(findTwin, arguments: [row.key])
          let file: String? = stored?["sourceFile"]
          let twinLine: Int? = stored?["sourceLine"]
          source = file.map { "\($0):\(twinLine ?? 0)" } ?? "added by hand"
        }
        explained.append(Duplicate(line: row.line, existingSource: source))
      }
      onOutcome?(row.line, .duplicate)
    }
    pending.removeAll(keepingCapacity: true)
  }

  /// Marks queued rows whose key is already stored: one range read over the batch's keys,
  /// merged with the sorted batch; point lookups if that range holds too many other rows.
  func markStored() throws {
    let low = pending[order.first!].key
    let high = pending[order.last!].key
    let limit = 4 * pending.count + 64
    let statement = existingInRange.sqliteStatement
    sqlite3_reset(statement)
    sqlite3_bind_int64(statement, 1, low)
    sqlite3_bind_int64(statement, 2, high)
    sqlite3_bind_int64(statement, 3, Int64(limit))
    var stored: [Int64] = []
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { break }
      guard step == SQLITE_ROW else { throw lastError() }
      stored.append(sqlite3_column_int64(statement, 0))
    }
    sqlite3_reset(statement)
    if stored.isEmpty { return }
    if stored.count < limit {
      var s = 0
      for index in order {
        let key = pending[index].key
        while s < stored.count && stored[s] < key { s += 1 }
        if s < stored.count && stored[s] == key { isNew[index] = false }
      }
      return
    }
    let lookup = existsKey.sqliteStatement
    for index in order {
      sqlite3_reset(lookup)
      sqlite3_bind_int64(lookup, 1, pending[index].key)
      let step = sqlite3_step(lookup)
      guard step == SQLITE_ROW || step == SQLITE_DONE else { throw lastError() }
      if step == SQLITE_ROW { isNew[index] = false }
    }
    sqlite3_reset(lookup)
  }

  /// Inserts the new rows of the batch in key order: full multi-row statements, then one by one.
  func write(ids: [Int64]) throws {
    var rows: [Int] = []
    rows.reserveCapacity(order.count)
    for index in order where isNew[index] { rows.append(index) }
    var start = 0
    let many = ImportSession.rowsPerStatement
    while start < rows.count {
      let count = rows.count - start >= many ? many : 1
      let statement = count == many ? insertMany.sqliteStatement : insertOne.sqliteStatement
      // Texts are copied once into the arena and bound SQLITE_STATIC; pointers into the arena
      // are taken only after the last append, and cleared before the borrow ends.
      arena.removeAll(keepingCapacity: true)
      var code = SQLITE_OK
      spans.removeAll(keepingCapacity: true)
      for (slot, index) in rows[start..<start + count].enumerated() {
        let row = pending[index]
        let base = Int32(slot * 9)
        code |= sqlite3_bind_int64(statement, base + 1, row.key)
        code |= sqlite3_bind_int64(statement, base + 2, ids[index])
        code |= sqlite3_bind_int64(statement, base + 4, row.amount.minor)
        code |= sqlite3_bind_int64(statement, base + 9, Int64(row.line))
        spans.append((base + 3, appendDate(row.date)))
        spans.append((base + 5, append(row.amount.currency.code)))
        spans.append((base + 6, append(row.description)))
        spans.append((base + 7, row.category.map(append)))
        spans.append((base + 8, row.account.map(append)))
      }
      let step = arena.withUnsafeBufferPointer { bytes -> Int32 in
        for (parameter, span) in spans {
          if let span {
            let pointer = UnsafeRawPointer(bytes.baseAddress!.advanced(by: span.lowerBound))
            code |= sqlite3_bind_text(
              statement, parameter, pointer.assumingMemoryBound(to: CChar.self), Int32(span.count), nil)  // STATIC
          } else {
            code |= sqlite3_bind_null(statement, parameter)
          }
        }
        let step = code == SQLITE_OK ? sqlite3_step(statement) : code
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)  // no pointer into the arena outlives this borrow
        return step
      }
      guard step == SQLITE_DONE else { throw lastError() }
      start += count
    }
  }

  /// Appends a text to the arena and returns where it is; an empty text still gets a byte so
  /// the pointer is never NULL (a NULL pointer would bind SQL NULL, not '').
  func append(_ text: String) -> Range<Int> {
    let start = arena.count
    var text = text
    text.withUTF8 { arena.append(contentsOf: $0) }
    if arena.count == start {
      arena.append(0)
      return start..<start
    }
    return start..<arena.count
  }

  func appendDate(_ date: CivilDate) -> Range<Int> {
    let start = arena.count
    let y = date.year
    arena.append(UInt8(48 + y / 1000 % 10))
    arena.append(UInt8(48 + y / 100 % 10))
    arena.append(UInt8(48 + y / 10 % 10))
    arena.append(UInt8(48 + y % 10))
    arena.append(45)
    arena.append(UInt8(48 + date.month / 10))
    arena.append(UInt8(48 + date.month % 10))
    arena.append(45)
    arena.append(UInt8(48 + date.day / 10))
    arena.append(UInt8(48 + date.day % 10))
    return start..<arena.count
  }

  func lastError() -> StoreError { StoreError.sqlite(String(cString: sqlite3_errmsg(db.sqliteConnection))) }

  /// Writes what is queued, saves the id counter and adds this file's sums to the rollup.
  func finish() throws {
    try flush()
    try AppDatabase.saveNextExpenseID(db, nextID)
    try totals.apply(db)
  }
}

extension AppDatabase {

  /// Runs `body` with an `ImportSession` inside ONE write transaction. If `body` throws, nothing
  /// of the file is written. With `dryRun`, everything runs the same (so within-file and stored
  /// duplicates are found exactly) and the transaction is rolled back at the end.
  public func importFile<T>(
    sourceFile: String, dryRun: Bool = false, explainLimit: Int = 20, _ body: (ImportSession) throws -> T
  ) throws -> T {
    do {
      return try writer.writeWithoutTransaction { db in
        // A larger page cache (16 MiB) for this connection only: the transaction still commits atomically.
        try db.execute(sql: "PRAGMA cache_size = -16384")  // 16 MiB
        var value: T?
        try db.inTransaction(.immediate) {
          let session = try ImportSession(db: db, sourceFile: sourceFile, explainLimit: explainLimit)
          value = try body(session)
          try session.finish()
          return dryRun ? .rollback : .commit
        }
        return value!
      }
    } catch let error as DatabaseError {
      throw AppDatabase.map(error)
    }
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite

/// Writes one file's rows inside one transaction: all of a file or none of it.
///
/// The hot path of a bulk import. Rows are queued and written in batches: each batch is sorted
/// by key, checked against the stored rows with ONE range read (a point lookup per row only when
/// the batch spans too much of the table), and inserted by a prepared multi-row `INSERT` reused
/// for every batch, with texts bound from a reusable byte arena (no copy inside SQLite). Batches
/// end at a day boundary, so a file in date order appends at the right edge of the table.
public final class ImportSession: ImportWriter {
  public typealias Outcome = ImportOutcome
  public typealias Duplicate = ImportDuplicate

  /// Rows per multi-row `INSERT` (10 parameters each, far below SQLite's limit).
  static let statementSizes = [256, 32, 4, 1]

  let db: Database
  let sourceFile: String
  /// Prepared multi-row `INSERT`s, one per size in `statementSizes`: bigger statements keep
  /// SQLite's cursor at the end of the table from row to row (measured: 256 rows per statement
  /// inserted sorted keys about 1.5× faster than 64).
  let inserts: [(rows: Int, statement: SQLiteStatement)]
  private let insertStatements: [Statement]
  let existingInRange: Statement
  let existsKey: Statement
  let findTwin: Statement
  /// How many duplicates keep their explanation; beyond it they are only counted.
  public let explainLimit: Int
  /// Called for every row, in file order, once its batch is written (a dry run's preview).
  public var onOutcome: ((_ row: ImportedRow, _ outcome: Outcome) -> Void)?
  public var onBatchWritten: ((_ batch: PreparedBatch, _ isNew: [Bool]) -> Void)?
  public internal(set) var inserted = 0
  public private(set) var duplicates = 0
  public private(set) var explained: [Duplicate] = []
  /// The next user-facing expense id (from `counter`), saved back by `finish`.
  var nextID: Int64
  /// The writer's buffers, kept from batch to batch.
  var work = ImportBatch()
  /// This file's sums per (month, currency, category), added to `monthTotal` by `finish`: an
  /// import only adds rows, so the rollup is updated without reading the expenses back.
  var totals = MonthTotalDeltas()
  /// The first id this import gives; with `nextID` at the end, the range `importRecord` keeps.
  var firstID: Int64 = 0
  /// The date span of the rows added so far.
  public internal(set) var firstDate: CivilDate?
  public internal(set) var lastDate: CivilDate?
  /// The `importRecord` id of this import once `finish` recorded it (`nil` if it added nothing).
  public private(set) var recordID: Int64?
  /// The days the new ids are stored on, one row per run of ids on one day (see `IdRuns`).
  var runs: IdRuns
  /// The split transaction being read, saved to `splitPart` a set at a time.
  var splits = SplitSets()
  /// The ids of the texts this import stores (the v6 dictionaries).
  let texts: ImportTexts
  /// A dry run (`--dry-run`, `--preview`): inside a read transaction, every row is classified
  /// against the stored rows exactly as the import would, and nothing is written, so the dry
  /// run never holds the writer. (Rows of one file never share a key: the occurrence number
  /// tells identical rows apart, so the stored rows are all a row can duplicate.)
  let dryRun: Bool
  /// The days of the rows stored before this import (see `ImportWriter.storedSpan`).
  public let storedSpan: ClosedRange<CivilDate>?
  /// The smallest and largest key stored before this import.
  let storedKeys: ClosedRange<Int64>?
  /// The reader `storedKeysBefore` made, closed by `closeStoredKeys`.
  var keyWindows: StoredKeyWindows?
  /// The id the rows name their file by when `importFile` does not hold it yet: inserted by
  /// `finish`.
  let newFileID: Int64?

  init(db: Database, sourceFile: String, explainLimit: Int, dryRun: Bool = false) throws {
    self.db = db
    self.sourceFile = sourceFile
    self.explainLimit = explainLimit
    self.dryRun = dryRun
    // A file new to the ledger is named in `importFile` by `finish`, under the id it gets
    // then (the writer holds the ledger meanwhile): an insert now would raise the `revision`
    // row's page, which the cache then spills, and writing it again at the end makes SQLite
    // re-read and re-checksum the whole WAL at the commit (a million rows: 61 MB).
    let storedFileID = try Int64.fetchOne(db, sql: "SELECT id FROM importFile WHERE name = ?", arguments: [sourceFile])
    let fileID = try storedFileID ?? Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) + 1 FROM importFile") ?? 1
    newFileID = dryRun || storedFileID != nil ? nil : fileID
    nextID = try AppDatabase.nextExpenseID(db)
    firstID = nextID
    storedKeys = try ImportSession.storedKeyRange(db)
    storedSpan = ImportSession.storedSpan(storedKeys)
    runs = try IdRuns(db)
    let columns =
      "(key, id, date, amountMinor, currencyId, descriptionId, categoryId, account, fileId, sourceLine, categorySource)"
    let values = "(?, ?, ?, ?, ?, ?, ?, ?, \(fileID), ?, ?)"
    texts = try ImportTexts(db)
    // OR FAIL: an error stops the import, which rolls its whole transaction back, so a
    // statement never needs to undo its own earlier rows; without it SQLite keeps a statement
    // journal of every page a statement changes (16 KiB each, in a temporary file), which a
    // file in no date order filled with whole leaf pages.
    insertStatements = try ImportSession.statementSizes.map { rows in
      try db.makeStatement(
        sql: "INSERT OR FAIL INTO expenseRow \(columns) VALUES "
          + Array(repeating: values, count: rows).joined(separator: ", ")
      )
    }
    inserts = zip(ImportSession.statementSizes, insertStatements).map { ($0, $1.sqliteStatement) }
    existingInRange = try db.makeStatement(
      sql: "SELECT key FROM expenseRow WHERE key BETWEEN ? AND ? ORDER BY key LIMIT ?")
    existsKey = try db.makeStatement(sql: "SELECT 1 FROM expenseRow WHERE key = ?")
    findTwin = try db.makeStatement(
      sql: """
        SELECT f.name AS sourceFile, e.sourceLine FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
        WHERE e.key = ?
        """)
  }

  /// A key on `day` no row uses yet, for rows that have no fingerprint (added by hand): `seed`
  /// spread over the hash bits, then the next free slot.
  static func freeKey(_ db: Database, on day: CivilDate, seed: Int64, table: String = "expenseRow") throws -> Int64 {
    try ExpenseKey.free(on: day, seed: seed) { key in
      try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE key = ?", arguments: [key]) == true
    }
  }

  /// Saves an import profile in the import's transaction.
  public func saveProfile(name: String, json: String) throws {
    guard !dryRun else { return }
    try AppDatabase.saveProfile(db, name: name, json: json)
  }

  public func addRecord(kind: String, body: String) throws {
    guard !dryRun else { return }
    _ = try AppDatabase.addRecord(db, kind: kind, body: body)
  }

  /// Kind transfer for these categories unless they have a kind already (the user's choice wins).
  public func markTransfers(_ categories: Set<String>) throws {
    guard !dryRun else { return }
    for name in categories.sorted() {
      try db.execute(
        sql: "INSERT INTO categoryKind (name, kind) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        arguments: [name, CategoryKind.transfer.rawValue])
    }
  }

  /// Writes one batch: the rows whose key is not stored yet are inserted, the others counted as
  /// duplicates. Batches must come in file order.

  public func write(_ batch: PreparedBatch) throws {
    guard batch.count > 0 else { return }
    var work = ImportBatch()
    swap(&work, &self.work)
    defer {
      // The batch is let go here: its last reference is the caller's, which may free it on
      // the thread that made its rows (`ImportPipeline.giveBack`).
      work.batch = PreparedBatch(rows: [], fileOrder: [], totals: MonthTotalDeltas(), totalKeys: [])
      swap(&work, &self.work)
    }
    work.batch = batch
    try work.classify(
      db, inRange: existingInRange.sqliteStatement, exists: existsKey.sqliteStatement,
      explainLimit: explainLimit)
    var next = nextID
    work.number(from: &next)
    let added = Int(next - nextID)
    nextID = next
    if !dryRun {
      try work.resolveTexts(db, texts)
      try work.insert(db, inserts)
    }
    try totals.merge(work.batch.totals)
    inserted += added
    duplicates += batch.count - added
    if added > 0 && !dryRun {
      // A local copy: a class property would pay an exclusivity check per row.
      var runs = self.runs
      defer { self.runs = runs }
      for position in work.batch.fileOrder where work.isNew[Int(position)] {
        let index = Int(position)
        try runs.add(id: work.ids[index], day: ExpenseKey(rawValue: work.batch.rows[index].key).day)
        let group = work.batch.rows[index].splitGroup
        if group != 0 { try addSplitPart(group: group, id: work.ids[index]) }
      }
    }
    if added > 0, let first = work.isNew.firstIndex(of: true), let last = work.isNew.lastIndex(of: true) {
      // Rows are in key order, and the key starts with the day.
      let (low, high) = (work.batch.rows[first].date, work.batch.rows[last].date)
      if firstDate.map({ low < $0 }) ?? true { firstDate = low }
      if lastDate.map({ high > $0 }) ?? true { lastDate = high }
    }
    onBatchWritten?(work.batch, work.isNew)
    if onOutcome != nil || (added < batch.count && explainLimit > 0) {
      for position in work.batch.fileOrder {
        let index = Int(position)
        let isNew = work.isNew[index]
        onOutcome?(work.batch.rows[index], isNew ? .inserted : .duplicate)
        if !isNew && explains(line: work.batch.rows[index].line) { explain(try explain(work, index)) }
      }
    }
  }

  /// A reader of the keys stored before this import, for the parse thread: none in a dry run
  /// (its preview lists every row whole), for an empty ledger, or for a file not in WAL mode.
  /// The write lock is held from `init` on (its first statement writes), so the reader's
  /// snapshot is the writer's.
  public func storedKeysBefore() throws -> (any StoredKeys)? {
    guard !dryRun, keyWindows == nil, let storedKeys else { return nil }
    keyWindows = StoredKeyWindows.open(beside: db, low: storedKeys.lowerBound, high: storedKeys.upperBound)
    return keyWindows
  }

  /// Closes the reader `storedKeysBefore` made (the parse thread has stopped).
  public func closeStoredKeys() {
    keyWindows?.close()
    keyWindows = nil
  }

  /// Counts rows the parse thread found stored as duplicates, explaining the first ones as
  /// `write` explains its own.
  public func recordStored(_ rows: [StoredRow]) throws {
    duplicates += rows.count
    for row in rows where explains(line: row.line) {
      explain(line: row.line, twin: try Row.fetchOne(findTwin, arguments: [row.key]))
    }
  }

  /// Whether a duplicate on `line` is among the first `explainLimit` by line seen so far
  /// (stored rows and a batch's duplicates come in either order).
  func explains(line: Int) -> Bool {
    explained.count < explainLimit || line < (explained.last?.line ?? .max)
  }

  /// Adds the duplicate on `line` to `explained`, kept in line order and to `explainLimit`.
  func explain(_ duplicate: Duplicate) {
    let at = explained.lastIndex { $0.line <= duplicate.line }.map { $0 + 1 } ?? 0
    explained.insert(duplicate, at: at)
    if explained.count > explainLimit { explained.removeLast(explained.count - explainLimit) }
  }

  /// Adds the duplicate on `line` of the stored row `twin` (`findTwin`'s row; nil: added by hand).
  func explain(line: Int, twin: Row?) { explain(Self.duplicate(line: line, twin: twin)) }

  /// The duplicate on `line` of the stored row `twin` (`findTwin`'s row; nil: added by hand).
  static func duplicate(line: Int, twin: Row?) -> Duplicate {
    let file: String? = twin?["sourceFile"]
    let twinLine: Int? = twin?["sourceLine"]
    return Duplicate(line: line, existingSource: file.map { "\($0):\(twinLine ?? 0)" } ?? "added by hand")
  }

  /// Where the stored twin of a duplicate came from.
  func explain(_ work: ImportBatch, _ index: Int) throws -> Duplicate {
    let line = work.batch.rows[index].line
    if let twin = work.twins[index] {
      return Duplicate(line: line, existingSource: "\(sourceFile):\(work.batch.rows[twin].line)")
    }
    var stored = try Row.fetchOne(findTwin, arguments: [work.batch.rows[index].key])
    if stored == nil, let former = work.batch.rows[index].formerKey {
      stored = try Row.fetchOne(findTwin, arguments: [former])
    }
    return Self.duplicate(line: line, twin: stored)
  }

  /// Adds a new part of split `group`; a new group saves the one before.
  func addSplitPart(group: Int, id: Int64) throws {
    if let ended = splits.add(group: group, id: id) { try save(ended) }
  }

  /// Saves the split set being read (see `SplitSets.finish`).
  func saveSplitParts() throws {
    if let set = splits.finish() { try save(set) }
  }

  private func save(_ set: SplitSets.Set) throws {
    let insert = try db.cachedStatement(sql: "INSERT INTO splitPart (id, setId) VALUES (?, ?)")
    for id in set.parts { try insert.execute(arguments: [id, set.id]) }
  }

  /// Saves the id counter, adds this file's sums to the rollup and, when
  /// rows were added, records the import (its id range, for `imports remove`).
  func finish(importedAt: String?) throws {
    guard !dryRun else { return }
    if let newFileID {
      try db.execute(sql: "INSERT INTO importFile (id, name) VALUES (?, ?)", arguments: [newFileID, sourceFile])
    }
    try runs.flush()
    try saveSplitParts()
    try AppDatabase.saveNextExpenseID(db, nextID)
    try totals.apply(db)
    // Rows taken back as probable duplicates keep their ids spent but are not in the record.
    if inserted > 0, let firstDate, let lastDate {
      let id = try AppDatabase.nextImportID(db)
      try db.execute(
        sql: """
          INSERT INTO importRecord (id, file, importedAt, rows, firstId, lastId, firstDate, lastDate)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          id, sourceFile, importedAt, inserted, firstID, nextID - 1, firstDate.description,
          lastDate.description,
        ])
      try AppDatabase.saveNextImportID(db, id + 1)
      recordID = id
    }
  }
}

extension AppDatabase {

  /// Runs `body` with an `ImportSession` inside ONE write transaction. If `body` throws, nothing
  /// of the file is written. With `dryRun`, inside ONE read transaction instead: every row is
  /// classified against the stored rows as the import would, nothing is written and no write
  /// lock is taken, so a dry run or preview never makes a writer wait (nor waits for one).
  /// `importedAt` (the caller's clock: the store reads none) is kept in the import's record.
  public func importFile<T>(
    sourceFile: String, dryRun: Bool = false, explainLimit: Int = 20, importedAt: Date? = nil,
    _ body: (ImportSession) throws -> T
  ) throws -> T {
    do {
      if dryRun {
        return try joiningRead { db in
          try body(ImportSession(db: db, sourceFile: sourceFile, explainLimit: explainLimit, dryRun: true))
        }
      }
      if joinsOpenWrite {
        // Inside `atomically`: a savepoint of its transaction, kept only if the session keeps it.
        return try joiningWrite { db in
          let session = try ImportSession(db: db, sourceFile: sourceFile, explainLimit: explainLimit)
          let value = try body(session)
          try session.finish(importedAt: importedAt.map(ImportRecord.timestamp))
          return value
        }
      }
      return try writer.writeWithoutTransaction { db in
        // A larger page cache (8 MiB) for this connection only: the transaction still commits
        // atomically. 16 MiB measured no faster on a million bank-shaped rows (1.42 s against
        // 1.38 s, a re-import 1.05 s against 1.06 s) and added 8 MiB to the import's peak.
        try db.execute(sql: "PRAGMA cache_size = -8192")  // 8 MiB
        var value: T?
        try db.inTransaction(.immediate) {
          let session = try ImportSession(db: db, sourceFile: sourceFile, explainLimit: explainLimit)
          value = try body(session)
          try session.finish(importedAt: importedAt.map(ImportRecord.timestamp))
          return dryRun ? .rollback : .commit
        }
        return value!
      }
    } catch let error as DatabaseError {
      throw AppDatabase.map(error, path: path)
    } catch let error as RowDecodingError {
      throw AppDatabase.map(error, path: path)
    }
  }
}

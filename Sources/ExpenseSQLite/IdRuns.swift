import ExpenseCore
import ExpenseStore
import GRDB
import GRDBSQLite

/// Finds an expense by its user-facing id without an index on `id`: the `idRun` table maps
/// runs of consecutive ids to the day they were stored on (the first 20 bits of the key), and
/// a day is one short key range of the expense table.
///
/// Why not an index on `id`: it was measured to cost about a quarter of a bulk import's time
/// (100k rows: 0.223 s against 0.183 s without it, and 19 bytes a row on disk), because every
/// row was written to a second B-tree. An import numbers its new rows in file order, so a bank
/// export (in date order, either way) gives one run per day: a few thousand small rows for
/// ten years of history instead of one index entry per expense. A file in no date order gives
/// up to one run per row, no worse than the index.
///
/// Invariant: every stored expense's id lies in exactly one run, whose day is the day of the
/// expense's key. Runs may also cover ids deleted since (a lookup then finds no row).
struct IdRuns {
  /// The run being built: ids `first...last` on `day`.
  private var pending: (first: Int64, last: Int64, day: Int64)?
  private let db: Database
  private let insert: Statement

  init(_ db: Database) throws {
    self.db = db
    insert = try db.makeStatement(sql: "INSERT INTO idRun (firstId, lastId, day) VALUES (?, ?, ?)")
  }

  /// Adds id `id` stored on `day`; ids must come in increasing order.
  mutating func add(id: Int64, day: Int64) throws {
    if let run = pending, run.day == day, run.last + 1 == id {
      pending = (run.first, id, day)
      return
    }
    try flush()
    pending = (id, id, day)
  }

  /// Writes the run being built (bound through the C API: an import writes thousands).
  mutating func flush() throws {
    guard let run = pending else { return }
    pending = nil
    let statement = insert.sqliteStatement
    sqlite3_bind_int64(statement, 1, run.first)
    sqlite3_bind_int64(statement, 2, run.last)
    sqlite3_bind_int64(statement, 3, run.day)
    let step = sqlite3_step(statement)
    sqlite3_reset(statement)
    guard step == SQLITE_DONE else { throw ImportBatch.error(db) }
  }

  /// The run holding `id`, if any.
  static func run(_ db: Database, containing id: Int64) throws -> (first: Int64, last: Int64, day: Int64)? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT firstId, lastId, day FROM idRun WHERE firstId <= ? ORDER BY firstId DESC LIMIT 1",
        arguments: [id])
    else { return nil }
    let run: (first: Int64, last: Int64, day: Int64) = (row["firstId"], row["lastId"], row["day"])
    return run.last >= id ? run : nil
  }

  /// The table key of expense `id`: one primary-key lookup in `idRun`, one range read of a day.
  static func key(_ db: Database, id: Int64) throws -> Int64? {
    guard let run = try run(db, containing: id) else { return nil }
    let keys = ExpenseKey.range(day: run.day)
    return try Int64.fetchOne(
      db, sql: "SELECT key FROM expense WHERE key BETWEEN ? AND ? AND id = ?",
      arguments: [keys.lowerBound, keys.upperBound, id])
  }

  /// Records that expense `id` now lives on `day` (an edit moved it): its run is split around it.
  static func move(_ db: Database, id: Int64, to day: Int64) throws {
    guard let run = try run(db, containing: id), run.day != day else { return }
    try db.execute(sql: "DELETE FROM idRun WHERE firstId = ?", arguments: [run.first])
    let insert = "INSERT INTO idRun (firstId, lastId, day) VALUES (?, ?, ?)"
    if run.first < id { try db.execute(sql: insert, arguments: [run.first, id - 1, run.day]) }
    try db.execute(sql: insert, arguments: [id, id, day])
    if id < run.last { try db.execute(sql: insert, arguments: [id + 1, run.last, run.day]) }
  }

  /// Records that expense `id`, stored again (an undone delete), lives on `day`: its old run
  /// still holds it when the day is the same, else it is moved there or given a run of its own.
  static func place(_ db: Database, id: Int64, day: Int64) throws {
    if try run(db, containing: id) != nil {
      try move(db, id: id, to: day)
    } else {
      try db.execute(sql: "INSERT INTO idRun (firstId, lastId, day) VALUES (?, ?, ?)", arguments: [id, id, day])
    }
  }

  /// Builds every run from the stored rows (the migration; one pass in id order).
  static func rebuild(_ db: Database) throws {
    try db.execute(sql: "DELETE FROM idRun")
    var runs = try IdRuns(db)
    let rows = try Row.fetchCursor(db, sql: "SELECT id, key FROM expense ORDER BY id")
    while let row = try rows.next() { try runs.add(id: row["id"], day: ExpenseKey(rawValue: row["key"]).day) }
    try runs.flush()
  }
}

extension AppDatabase {
  /// SQLite's plan for `sql`, one line per step (tests check that lookups by id never scan).
  func queryPlan(_ sql: String) throws(StoreError) -> String {
    try read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: "\n")
    }
  }
}

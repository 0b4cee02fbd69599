import ExpenseCore
import GRDB
import GRDBSQLite

/// Writes one file's rows inside one transaction: all of a file or none of it.
///
/// The hot path of a bulk import: one prepared `INSERT OR IGNORE` reused for every row, bound
/// through SQLite's C API (no per-row argument boxing), with the unique fingerprint index
/// deciding what is a duplicate inside the same statement (no extra lookup per row).
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

  let db: Database
  let insert: Statement
  let findTwin: Statement
  let sourceFile: String
  /// How many duplicates keep their explanation; beyond it they are only counted.
  public let explainLimit: Int
  public private(set) var inserted = 0
  public private(set) var duplicates = 0
  public private(set) var explained: [Duplicate] = []

  init(db: Database, sourceFile: String, explainLimit: Int) throws {
    self.db = db
    self.sourceFile = sourceFile
    self.explainLimit = explainLimit
    insert = try db.makeStatement(
      sql: """
        INSERT OR IGNORE INTO expense
          (date, amountMinor, currency, description, category, account, fingerprint, sourceFile, sourceLine)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    findTwin = try db.makeStatement(sql: "SELECT sourceFile, sourceLine FROM expense WHERE fingerprint = ?")
  }

  /// The stored key of an imported row: the day in the high 20 bits and 43 bits of the
  /// fingerprint hash below. An integer compares faster than hex text and, since bank files
  /// come in date order, new keys land at the right edge of the unique index instead of at
  /// random pages (which is what made large imports seek).
  public static func key(date: CivilDate, fingerprintHash: UInt64) -> Int64 {
    let day = Int64(date.daysSinceEpoch + (1 << 19)) & 0xF_FFFF
    return day << 43 | Int64(fingerprintHash & ((1 << 43) - 1))
  }

  /// Months that received rows, so their totals can be rebuilt when the file is done.
  var touchedMonths: Set<Month> = []
  var lastMonth: (year: Int, month: Int) = (0, 0)
  var boundFile = false

  /// Inserts one row unless its key is already stored.
  @discardableResult
  public func insert(
    date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprintHash: UInt64, line: Int
  ) throws -> Outcome {
    let key = ImportSession.key(date: date, fingerprintHash: fingerprintHash)
    let statement = insert.sqliteStatement
    sqlite3_reset(statement)
    var code = ImportSession.bindDate(statement, 1, date)
    code |= sqlite3_bind_int64(statement, 2, amount.minor)
    code |= bindText(statement, 3, amount.currency.code)
    code |= bindText(statement, 4, description)
    code |= category.map { bindText(statement, 5, $0) } ?? sqlite3_bind_null(statement, 5)
    code |= account.map { bindText(statement, 6, $0) } ?? sqlite3_bind_null(statement, 6)
    code |= sqlite3_bind_int64(statement, 7, key)
    if !boundFile {  // bindings survive sqlite3_reset: the file name is bound once
      code |= bindText(statement, 8, sourceFile)
      boundFile = true
    }
    code |= sqlite3_bind_int64(statement, 9, Int64(line))
    guard code == SQLITE_OK else { throw StoreError.sqlite(String(cString: sqlite3_errmsg(db.sqliteConnection))) }
    let step = sqlite3_step(statement)
    guard step == SQLITE_DONE else { throw StoreError.sqlite(String(cString: sqlite3_errmsg(db.sqliteConnection))) }
    if sqlite3_changes(db.sqliteConnection) > 0 {
      inserted += 1
      if lastMonth != (date.year, date.month) {
        lastMonth = (date.year, date.month)
        touchedMonths.insert(date.calendarMonth)
      }
      return .inserted
    }
    duplicates += 1
    if explained.count < explainLimit {
      let row = try Row.fetchOne(findTwin, arguments: [key])
      let file: String? = row?["sourceFile"]
      let twinLine: Int? = row?["sourceLine"]
      let source = file.map { "\($0):\(twinLine ?? 0)" } ?? "added by hand"
      explained.append(Duplicate(line: line, existingSource: source))
    }
    return .duplicate
  }

  /// Binds `YYYY-MM-DD` from a stack buffer: no String is built per row.
  static func bindDate(_ statement: SQLiteStatement, _ index: Int32, _ date: CivilDate) -> Int32 {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 10) { buffer in
      var y = date.year
      for i in stride(from: 3, through: 0, by: -1) {
        buffer[i] = CChar(48 + y % 10)
        y /= 10
      }
      buffer[4] = 45
      buffer[5] = CChar(48 + date.month / 10)
      buffer[6] = CChar(48 + date.month % 10)
      buffer[7] = 45
      buffer[8] = CChar(48 + date.day / 10)
      buffer[9] = CChar(48 + date.day % 10)
      return sqlite3_bind_text(statement, index, buffer.baseAddress, 10, AppDatabase.transient)
    }
  }

  private func bindText(_ statement: SQLiteStatement, _ index: Int32, _ text: String) -> Int32 {
    var text = text
    return text.withUTF8 { buffer in
      sqlite3_bind_text(
        statement, index, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
        Int32(buffer.count), AppDatabase.transient)
    }
  }
}

extension AppDatabase {
  /// SQLite's "copy the bytes now" destructor.
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

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
          try AppDatabase.rebuildMonthTotals(db, months: session.touchedMonths)
          return dryRun ? .rollback : .commit
        }
        return value!
      }
    } catch let error as DatabaseError {
      throw AppDatabase.map(error)
    }
  }
}

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

  /// Inserts one row unless its fingerprint is already stored.
  @discardableResult
  public func insert(
    date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprint: String, line: Int
  ) throws -> Outcome {
    let statement = insert.sqliteStatement
    sqlite3_reset(statement)
    var code = bindText(statement, 1, date.description)
    code |= sqlite3_bind_int64(statement, 2, amount.minor)
    code |= bindText(statement, 3, amount.currency.code)
    code |= bindText(statement, 4, description)
    code |= category.map { bindText(statement, 5, $0) } ?? sqlite3_bind_null(statement, 5)
    code |= account.map { bindText(statement, 6, $0) } ?? sqlite3_bind_null(statement, 6)
    code |= bindText(statement, 7, fingerprint)
    code |= bindText(statement, 8, sourceFile)
    code |= sqlite3_bind_int64(statement, 9, Int64(line))
    guard code == SQLITE_OK else { throw StoreError.sqlite(String(cString: sqlite3_errmsg(db.sqliteConnection))) }
    let step = sqlite3_step(statement)
    guard step == SQLITE_DONE else { throw StoreError.sqlite(String(cString: sqlite3_errmsg(db.sqliteConnection))) }
    if sqlite3_changes(db.sqliteConnection) > 0 {
      inserted += 1
      return .inserted
    }
    duplicates += 1
    if explained.count < explainLimit {
      let row = try Row.fetchOne(findTwin, arguments: [fingerprint])
      let file: String? = row?["sourceFile"]
      let twinLine: Int? = row?["sourceLine"]
      let source = file.map { "\($0):\(twinLine ?? 0)" } ?? "added by hand"
      explained.append(Duplicate(line: line, existingSource: source))
    }
    return .duplicate
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
        // A larger page cache for this connection only: the transaction still commits atomically.
        try db.execute(sql: "PRAGMA cache_size = -32768")  // 32 MiB
        var value: T?
        try db.inTransaction(.immediate) {
          let session = try ImportSession(db: db, sourceFile: sourceFile, explainLimit: explainLimit)
          value = try body(session)
          return dryRun ? .rollback : .commit
        }
        return value!
      }
    } catch let error as DatabaseError {
      throw AppDatabase.map(error)
    }
  }
}

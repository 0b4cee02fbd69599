import ExpenseCore
import GRDB
import GRDBSQLite

extension AppDatabase {
  /// `LedgerStore.withExpenseSnapshot`: `body` runs inside one read transaction, so every pass
  /// it makes sees the same rows. SQLite's errors become `StoreError`s as in every read; any
  /// other error `body` throws (a closed output, a full disk) is rethrown as it is, never
  /// turned into a database error.
  public func withExpenseSnapshot<T>(_ body: (any ExpenseSnapshot) throws -> T) throws -> T {
    do {
      return try writer.read { db in try body(Snapshot(db: db, path: path)) }
    } catch let error as DatabaseError {
      throw AppDatabase.map(error, path: path)
    } catch let error as RowDecodingError {
      throw AppDatabase.map(error, path: path)
    } catch let error as UnreadableValue {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// The rows of one read transaction, visited with one prepared statement per pass. It
  /// remembers, per filter, whether the rows are in date order in key order
  /// (`DateOrderCheck`), so an ordered pass after a measuring one needs no check of its own.
  final class Snapshot: ExpenseSnapshot {
    let db: Database
    let path: String
    private(set) var inDateOrder: [ExpenseQuery: Bool] = [:]

    init(db: Database, path: String) {
      self.db = db
      self.path = path
    }

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      let filter = query.ordered(.any)
      switch query.order {
      case .any:
        // Key order, which costs no sort; the date order is checked on the way.
        inDateOrder[filter] = try scan(filter, orderBy: "key", checkingOrder: true) { row, _ in try body(row.get()) }
      case .newestFirst, .oldestFirst:
        let descending = query.order == .newestFirst
        if try isInDateOrder(filter) {
          try grouped(filter, descending: descending, body)
        } else {
          try scan(filter, orderBy: descending ? "date DESC, e.id DESC" : "date, e.id") { row, _ in try body(row.get())
          }
        }
      }
    }

    /// Whether the filter's rows come in date order by key: known from an earlier pass, or
    /// checked by reading their ids and dates alone.
    private func isInDateOrder(_ filter: ExpenseQuery) throws -> Bool {
      if let known = inDateOrder[filter] { return known }
      let (sql, arguments) = try AppDatabase.streamSQL(
        filter, db, columns: "e.id, \(AppDatabase.streamDate)", orderBy: "key")
      let statement = try db.makeStatement(sql: sql)
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      var check = DateOrderCheck()
      while try rows.next() != nil {
        check.add(statement.sqliteStatement)
        if !check.inOrder { break }
      }
      let verdict = check.finish()
      inDateOrder[filter] = verdict
      return verdict
    }

    /// Visits the rows in key order (each date's rows held and put in id order): the order of
    /// `ORDER BY date, id` when `isInDateOrder`.
    private func grouped(_ filter: ExpenseQuery, descending: Bool, _ body: (ExpenseRow) throws -> Void) throws {
      var run = DateRunBuffer()
      try scan(filter, orderBy: descending ? "key DESC" : "key") { row, statement in
        // `isInDateOrder` found every id an INTEGER and every date TEXT.
        let idValue = sqlite3_column_value(statement, 0)
        let dateValue = sqlite3_column_value(statement, 1)
        let id = sqlite3_value_int64(idValue)
        let start = sqlite3_value_text(dateValue)
        let date = UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_value_bytes(dateValue)))
        if !run.holds(date: date) { try run.emit(descending: descending, body) }
        run.begin(date: date)
        switch row {
        case .success(let row): run.add(row, id: id)
        case .failure(let error): run.add(failure: error, id: id)
        }
      }
      try run.emit(descending: descending, body)
    }

    /// Runs the streaming SELECT of `filter` in `orderBy` order and hands each row to `visit`
    /// (decoded, or the error of a row that does not decode). With `checkingOrder` (in key
    /// order) it returns whether the dates came in order (`DateOrderCheck`).
    @discardableResult
    private func scan(
      _ filter: ExpenseQuery, orderBy: String, checkingOrder: Bool = false,
      _ visit: (Result<ExpenseRow, any Error>, OpaquePointer) throws -> Void
    ) throws -> Bool {
      var check = DateOrderCheck()
      let (sql, arguments) = try AppDatabase.streamSQL(filter, db, orderBy: orderBy)
      let statement = try db.makeStatement(sql: sql)
      let sqlite = statement.sqliteStatement
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      var reader = ExpenseRowReader(statement: sqlite)
      while let row = try rows.next() {
        if checkingOrder { check.add(sqlite) }
        if try reader.visitCurrentRow({ try visit(.success($0), sqlite) }) { continue }
        // A value the fast reader does not take as it is (a NULL, a REAL, invalid UTF-8, an
        // unknown currency): decoded exactly as the array reads decode it, errors included.
        let expense: Expense
        do { expense = try AppDatabase.expense(from: row.copy()) } catch {
          try visit(.failure(AppDatabase.map(error, path: path)), sqlite)
          continue
        }
        try ExpenseRow.withRow(of: expense) { try visit(.success($0), sqlite) }
      }
      return check.finish()
    }
  }

  /// The rows of a streaming read: the `expense` view's tables and joins written out, so the
  /// date of a row comes from `expenseKeyDate` (a C function) rather than the view's `date()`,
  /// about half of a million-row listing's time (see `KeyDateFunction`). The columns keep the
  /// view's names and values.
  static let streamFrom = """
    expenseRow e
    LEFT JOIN (SELECT id AS currencyKey, code AS currency FROM currencyCode) ON currencyKey = e.currencyId
    LEFT JOIN (SELECT id AS descriptionKey, text AS description FROM descriptionText) ON descriptionKey = e.descriptionId
    LEFT JOIN (SELECT id AS categoryKey, name AS category FROM categoryName) ON categoryKey = e.categoryId
    """
  /// The view's `date` column, computed as `streamFrom` does.
  static let streamDate = "COALESCE(e.date, \(KeyDateFunction.name)(e.key)) AS date"

  /// The SELECT of a streaming read: by default the columns `expense(from:)` decodes, those of
  /// `expenses(month:category:limit:)` (so a row that does not decode is described as that read
  /// describes it), in the order `ExpenseRowReader` reads them (`e.id` first and `date`
  /// second, as `DateOrderCheck` reads them), with the filters of `query` (the array reads'
  /// SQL) in `orderBy` order.
  static func streamSQL(
    _ query: ExpenseQuery, _ db: Database,
    columns: String =
      "e.id, \(streamDate), amountMinor, currency, description, category, account, f.name AS sourceFile, "
      + "sourceLine, categorySource",
    orderBy: String
  ) throws -> (String, StatementArguments) {
    var conditions: [String] = []
    var arguments: StatementArguments = []
    if let month = query.month {
      let keys = ExpenseKey.range(from: month.firstDay, through: month.lastDay)
      conditions.append("key BETWEEN ? AND ?")
      arguments += [keys.lowerBound, keys.upperBound]
    }
    if let first = query.from {
      conditions.append("key >= ?")
      arguments += [ExpenseKey.range(day: ExpenseKey.storedDay(first)).lowerBound]
    }
    if let last = query.through {
      conditions.append("key <= ?")
      arguments += [ExpenseKey.range(day: ExpenseKey.storedDay(last)).upperBound]
    }
    if let category = query.category {
      if category == uncategorizedName {
        conditions.append("category IS NULL")
      } else {
        conditions.append("category = ?")
        arguments += [try AppDatabase.categoryNames(db).known(category) ?? category]
      }
    }
    var sql = "SELECT \(columns) FROM \(streamFrom)"
    if columns.contains("f.name") { sql += " LEFT JOIN importFile f ON f.id = e.fileId" }
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY " + orderBy
    return (sql, arguments)
  }
}

import ExpenseCore
import GRDB

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

  /// The rows of one read transaction, visited with one prepared statement per pass.
  struct Snapshot: ExpenseSnapshot {
    let db: Database
    let path: String

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      let (sql, arguments) = try AppDatabase.streamSQL(query, db)
      let statement = try db.makeStatement(sql: sql)
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      var reader = ExpenseRowReader(statement: statement.sqliteStatement)
      while let row = try rows.next() {
        if try reader.visitCurrentRow(body) { continue }
        // A value the fast reader does not take as it is (a NULL, a REAL, invalid UTF-8, an
        // unknown currency): decoded exactly as the array reads decode it, errors included.
        let expense: Expense
        do { expense = try AppDatabase.expense(from: row.copy()) } catch { throw AppDatabase.map(error, path: path) }
        try ExpenseRow.withRow(of: expense, body)
      }
    }
  }

  /// The SELECT of a streaming read: the columns `expense(from:)` decodes, in the order
  /// `ExpenseRowReader` reads them, with the filters and order of `query` (the same SQL as the
  /// array reads, so both give the same rows in the same order).
  static func streamSQL(_ query: ExpenseQuery, _ db: Database) throws -> (String, StatementArguments) {
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
    var sql = """
      SELECT e.id, date, amountMinor, currency, description, category, account, f.name AS sourceFile, sourceLine
      FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
      """
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    switch query.order {
    case .newestFirst: sql += " ORDER BY date DESC, e.id DESC"
    case .oldestFirst: sql += " ORDER BY date, e.id"
    case .any: break
    }
    return (sql, arguments)
  }
}

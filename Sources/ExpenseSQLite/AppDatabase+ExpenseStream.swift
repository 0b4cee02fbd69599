import Dispatch
import ExpenseCore
import ExpenseStore
import Foundation
import GRDB
import GRDBSQLite

extension AppDatabase {
  /// `LedgerStore.withExpenseSnapshot`: `body` runs inside one read transaction, so every pass
  /// it makes sees the same rows. SQLite's errors become `StoreError`s as in every read; any
  /// other error `body` throws (a closed output, a full disk) is rethrown as it is, never
  /// turned into a database error.
  public func withExpenseSnapshot<T>(_ body: (any ExpenseSnapshot) throws -> T) throws -> T {
    do {
      return try joiningRead { db in try body(Snapshot(db: db, path: path)) }
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
    /// The dictionaries in memory (`StreamTexts`), read at the first pass that can use them;
    /// `.some(nil)` when the file's tables do not qualify and reads keep their joins.
    private var loadedTexts: StreamTexts??

    init(db: Database, path: String) {
      self.db = db
      self.path = path
    }

    /// Whether a pass read the dictionaries into memory (for the tests).
    var textsInMemory: Bool? { loadedTexts.map { $0 != nil } }

    /// The texts for a pass over `filter`: only for a pass over every row (`list`, `export`),
    /// which reads about as many rows as the dictionaries hold entries or more (each entry was
    /// written for a row; only deletes and edits leave some unused, and the load is bounded);
    /// a month or a date range may read fewer rows than that (a report's
    /// month of 100 rows against 5,000 merchants), and a category filter compares the
    /// category's name, so those keep the joins, as they do when the dictionaries do not
    /// qualify.
    private func texts(for filter: ExpenseQuery) throws -> StreamTexts? {
      // (A search's text test keeps few rows of many: their texts come with the joins.)
      guard filter.category == nil, filter.month == nil, filter.from == nil, filter.through == nil,
        filter.texts == nil
      else {
        return nil
      }
      if let loadedTexts { return loadedTexts }
      let texts = try StreamTexts.load(db)
      loadedTexts = .some(texts)
      return texts
    }

    func forEachExpense(_ query: ExpenseQuery, _ body: (ExpenseRow) throws -> Void) throws {
      let filter = query.ordered(.any)
      switch query.order {
      case .any:
        // Key order, which costs no sort; the date order is known from the keys, or checked on
        // the way.
        let known = inDateOrder[filter] == true || datesComeFromKeys(filter)
        let checked = try scan(filter, orderBy: "key", checkingOrder: !known) { row, _ in try body(row.get()) }
        inDateOrder[filter] = known || checked
      case .newestFirst, .oldestFirst:
        let descending = query.order == .newestFirst
        if try isInDateOrder(filter) {
          try grouped(filter, descending: descending, body)
        } else {
          try scan(filter, orderBy: descending ? "date DESC, e.id DESC, e.key DESC" : "date, e.id, e.key") { row, _ in
            try body(row.get())
          }
        }
      }
    }

    /// Whether the filter's rows come in date order by key: known from an earlier pass; known
    /// when every date is its key's (`datesComeFromKeys`); else checked by reading their ids
    /// and dates alone.
    private func isInDateOrder(_ filter: ExpenseQuery) throws -> Bool {
      if let known = inDateOrder[filter] { return known }
      if datesComeFromKeys(filter) {
        inDateOrder[filter] = true
        return true
      }
      let (sql, arguments) = try AppDatabase.streamSQL(
        filter, db, columns: "e.id, \(AppDatabase.streamDate)", joined: filter.category != nil, orderBy: "key")
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

    /// Whether no row of the filter's keys has a date of its own, nor a negative key (whose
    /// date is NULL): then every date is its key's day, and the dates come in key order. One
    /// lookup in the index of dated rows (`migrateDated`) and one in the keys; false, so that
    /// the rows are checked one by one, when the file lacks the index. The category is left
    /// out: a dated row of another category only makes the answer careful.
    func datesComeFromKeys(_ filter: ExpenseQuery) -> Bool {
      let keys = AppDatabase.keyBounds(filter)
      guard keys.lower <= keys.upper else { return true }
      let sql = """
        SELECT EXISTS (SELECT 1 FROM expenseRow INDEXED BY \(AppDatabase.datedIndex)
                       WHERE date IS NOT NULL AND key BETWEEN ?1 AND ?2)
            OR EXISTS (SELECT 1 FROM expenseRow WHERE key BETWEEN ?1 AND min(?2, -1))
        """
      // (`min(?2, -1)`: a range of keys SQLite seeks; `key < 0 AND …` read the month's rows.)
      // (The Statement is kept alive while its C statement is used: it finalizes it when freed.)
      guard let prepared = try? db.makeStatement(sql: sql) else { return false }
      return withExtendedLifetime(prepared) {
        let statement = prepared.sqliteStatement
        sqlite3_bind_int64(statement, 1, keys.lower)
        sqlite3_bind_int64(statement, 2, keys.upper)
        defer { sqlite3_reset(statement) }
        return sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_type(statement, 0) == SQLITE_INTEGER
          && sqlite3_column_int64(statement, 0) == 0
      }
    }

    /// Visits the rows in key order, each date's rows held and put in id order: the order of
    /// `ORDER BY date, id, key` when `isInDateOrder`.
    ///
    /// A date whose rows cannot be put in order in memory (more than `DateOrderCheck.runLimit`
    /// of them, an id that is not an INTEGER, one id twice) is read again on its own, sorted by
    /// SQL, and the rest of its rows here are passed over. That happens only when the order
    /// was known from the keys (`datesComeFromKeys`; the row-by-row check sends such files to
    /// SQL's sort altogether), so the date is its key's day and the day's keys are its rows.
    private func grouped(_ filter: ExpenseQuery, descending: Bool, _ body: (ExpenseRow) throws -> Void) throws {
      var run = DateRunBuffer()
      try scan(filter, orderBy: descending ? "key DESC" : "key") { row, statement in
        let idValue = sqlite3_column_value(statement, 0)
        let dateValue = sqlite3_column_value(statement, 1)
        let start = sqlite3_value_text(dateValue)
        let date = UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_value_bytes(dateValue)))
        if !run.holds(date: date) {
          try endDate(&run, of: filter, descending: descending, body)
          run.begin(date: date)
        }
        if run.readBySQL { return }
        guard sqlite3_value_type(idValue) == SQLITE_INTEGER, run.count < DateOrderCheck.runLimit else {
          run.leaveToSQL()
          return
        }
        let id = sqlite3_value_int64(idValue)
        switch row {
        case .success(let row): run.add(row, id: id)
        case .failure(let error): run.add(failure: error, id: id)
        }
      }
      try endDate(&run, of: filter, descending: descending, body)
    }

    /// Visits the rows of the run's date in order: from memory, or read again by SQL.
    private func endDate(
      _ run: inout DateRunBuffer, of filter: ExpenseQuery, descending: Bool, _ body: (ExpenseRow) throws -> Void
    ) throws {
      guard let date = run.date else { return }
      if try !run.emit(descending: descending, body) { try readDay(date, of: filter, descending: descending, body) }
    }

    /// The rows of one date of `filter` (a date that is its key's day), sorted by SQL.
    private func readDay(
      _ date: [UInt8], of filter: ExpenseQuery, descending: Bool, _ body: (ExpenseRow) throws -> Void
    ) throws {
      guard let civil = try? CivilDate.parseStored(String(decoding: date, as: UTF8.self)) else {
        throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a date of the grouped read is not its key's day")
      }
      var one = filter
      one.month = nil
      one.from = civil
      one.through = civil
      try scan(one, orderBy: descending ? "e.id DESC, e.key DESC" : "e.id, e.key") { row, _ in try body(row.get()) }
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
      let texts = try texts(for: filter)
      let (sql, arguments) = try AppDatabase.streamSQL(
        filter, db, columns: texts == nil ? AppDatabase.streamColumns : AppDatabase.streamIdColumns,
        joined: texts == nil, orderBy: orderBy, passing: try passing(filter.texts))
      let statement = try db.makeStatement(sql: sql)
      let sqlite = statement.sqliteStatement
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      var reader = ExpenseRowReader(statement: sqlite, texts: texts)
      while let row = try rows.next() {
        if checkingOrder { check.add(sqlite) }
        if try reader.visitCurrentRow({ try visit(.success($0), sqlite) }) { continue }
        // A value the fast reader does not take as it is (a NULL, a REAL, invalid UTF-8, an
        // unknown currency, an id without its text): decoded exactly as the array reads decode
        // it, errors included; without the joins, the row is read again with them, by its key.
        let expense: Expense
        do { expense = try AppDatabase.expense(from: texts == nil ? row.copy() : joinedRow(of: row)) } catch {
          try visit(.failure(AppDatabase.map(error, path: path)), sqlite)
          continue
        }
        try ExpenseRow.withRow(of: expense) { try visit(.success($0), sqlite) }
      }
      return check.finish()
    }

    /// The texts that pass `test`, found once per snapshot: the ids of the descriptions and
    /// categories (each distinct text tested once, in the dictionaries) and the accounts (kept
    /// in the rows: their distinct values), as JSON arrays for `json_each`; the descriptions
    /// stored inline are tested row by row (`TextTestFunction`).
    private var passingTexts: [TextTest: PassingTexts] = [:]

    private func passing(_ test: TextTest?) throws -> PassingTexts? {
      guard let test else { return nil }
      if let known = passingTexts[test] { return known }
      func ids(_ sql: String) throws -> String {
        var entries: [(id: Int64, text: String)] = []
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
          guard let id = row[0] as Int64?, let text = row[1] as String? else { continue }
          entries.append((id, text))
        }
        return "[" + AppDatabase.passing(entries, test).map(String.init).joined(separator: ",") + "]"
      }
      var accounts: [String] = []
      let rows = try String.fetchCursor(db, sql: "SELECT DISTINCT account FROM expenseRow WHERE account IS NOT NULL")
      while let account = try rows.next() {
        if test.test(account) { accounts.append(account) }
      }
      let encoded = try JSONSerialization.data(withJSONObject: accounts)
      let found = PassingTexts(
        descriptions: try ids("SELECT id, text FROM descriptionText"),
        categories: try ids("SELECT id, name FROM categoryName"),
        accounts: String(decoding: encoded, as: UTF8.self),
        inlineTested: TextTestFunction.register(test, db))
      passingTexts[test] = found
      return found
    }

    /// The row of an id-only read (`streamIdColumns`, its key last) read again with the joins.
    private func joinedRow(of row: Row) throws -> Row {
      let key = try row.decode(Int64.self, atIndex: AppDatabase.streamIdColumnCount - 1)
      let sql =
        "SELECT \(AppDatabase.streamColumns) FROM \(AppDatabase.streamFrom) "
        + "LEFT JOIN importFile f ON f.id = e.fileId WHERE e.key = ?"
      guard let joined = try Row.fetchOne(db, sql: sql, arguments: [key]) else {
        throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "an expense row vanished during a read")
      }
      return joined
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
  /// The view's `date` column, computed as `streamFrom` does: by `expenseKeyDate`, or, for a
  /// negative key (which it leaves NULL; never written by this program), by the view's own
  /// `date()`, so that such a row reads as the array reads read it.
  static let streamDate =
    "COALESCE(e.date, \(KeyDateFunction.name)(e.key), \(AppDatabase.keyDateSQL("e.key"))) AS date"

  /// The columns `expense(from:)` decodes, those of `expenses(month:category:limit:)` (so a row
  /// that does not decode is described as that read describes it), in the order
  /// `ExpenseRowReader` reads them (`e.id` first and `date` second, as `DateOrderCheck` reads
  /// them).
  static let streamColumns =
    "e.id, \(streamDate), amountMinor, currency, \(descriptionSQL(row: "e", text: "description")) AS description, "
    + "category, account, f.name AS sourceFile, sourceLine, categorySource"
  /// The same columns read from `expenseRow` alone, for `ExpenseRowReader` with `StreamTexts`:
  /// the dictionaries' and the file's ids where `streamColumns` has their texts, and the key
  /// last (to read a row that needs the general decoder again, with the joins).
  static let streamIdColumns =
    "e.id, \(streamDate), e.amountMinor, e.currencyId, e.descriptionId, e.categoryId, e.account, e.fileId, "
    + "e.sourceLine, e.categorySource, e.key"
  static let streamIdColumnCount = 11

  /// The keys the month and date range of `query` allow (`lower > upper`: none).
  static func keyBounds(_ query: ExpenseQuery) -> (lower: Int64, upper: Int64) {
    var lower = Int64.min
    var upper = Int64.max
    if let month = query.month {
      let keys = ExpenseKey.range(from: month.firstDay, through: month.lastDay)
      lower = max(lower, keys.lowerBound)
      upper = min(upper, keys.upperBound)
    }
    if let first = query.from { lower = max(lower, ExpenseKey.range(day: ExpenseKey.storedDay(first)).lowerBound) }
    if let last = query.through { upper = min(upper, ExpenseKey.range(day: ExpenseKey.storedDay(last)).upperBound) }
    return (lower, upper)
  }

  /// The SELECT of a streaming read: by default `streamColumns`, with the filters of `query`
  /// (the array reads' SQL) in `orderBy` order. Without `joined`, from `expenseRow` alone: the
  /// columns must not name a dictionary's text, nor the query a category.
  static func streamSQL(
    _ query: ExpenseQuery, _ db: Database, columns: String = streamColumns, joined: Bool = true,
    orderBy: String, passing: PassingTexts? = nil
  ) throws -> (String, StatementArguments) {
    var conditions: [String] = []
    var arguments: StatementArguments = []
    if let passing {
      // Only the rows whose description, category or account passed the query's text test;
      // a column none of whose texts passed is not tested, and when none passed no row is read.
      // A description stored inline (a BLOB) is tested in the row.
      let columns = [
        ("e.descriptionId", passing.descriptions), ("e.categoryId", passing.categories),
        ("e.account", passing.accounts),
      ].filter { $0.1 != PassingTexts.none }
      let inline =
        "(typeof(e.descriptionId) = 'blob'"
        + (passing.inlineTested ? " AND \(TextTestFunction.name)(e.descriptionId))" : ")")
      conditions.append(
        "(" + (columns.map { "\($0.0) IN (SELECT value FROM json_each(?))" } + [inline]).joined(separator: " OR ")
          + ")")
      arguments += StatementArguments(columns.map(\.1))
    }
    if query.month != nil || query.from != nil || query.through != nil {
      let keys = keyBounds(query)
      conditions.append("key BETWEEN ? AND ?")
      arguments += [keys.lower, keys.upper]
    }
    if let category = query.category {
      if category == uncategorizedName {
        conditions.append("category IS NULL")
      } else {
        conditions.append("category = ?")
        arguments += [try AppDatabase.categoryNames(db).known(category) ?? category]
      }
    }
    var sql = "SELECT \(columns) FROM \(joined ? streamFrom : "expenseRow e")"
    if joined && columns.contains("f.name") { sql += " LEFT JOIN importFile f ON f.id = e.fileId" }
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY " + orderBy
    return (sql, arguments)
  }
}

extension AppDatabase {
  /// The ids of `entries` whose text passes `test`, in their order, tested on every core: a
  /// text another script than ASCII is folded by Foundation, most of a search's time.
  static func passing(_ entries: [(id: Int64, text: String)], _ test: TextTest) -> [Int64] {
    let parts = entries.count < 10_000 ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
    let size = (entries.count + parts - 1) / max(1, parts)
    let results = PassingParts(count: parts)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let range = (part * size)..<min(entries.count, (part + 1) * size)
      results.set(part, range.isEmpty ? [] : entries[range].filter { test.test($0.text) }.map(\.id))
    }
    return results.all
  }
}

/// Each part's ids, set by its own thread.
private final class PassingParts: @unchecked Sendable {
  private var parts: [[Int64]]
  private let lock = NSLock()
  init(count: Int) { parts = Array(repeating: [], count: count) }
  func set(_ part: Int, _ ids: [Int64]) {
    lock.lock()
    parts[part] = ids
    lock.unlock()
  }
  var all: [Int64] { parts.flatMap { $0 } }
}

/// The texts of a snapshot that passed a query's `TextTest`: description and category ids and
/// account names, each a JSON array.
struct PassingTexts {
  /// The array of none.
  static let none = "[]"
  var descriptions: String
  var categories: String
  var accounts: String
  /// Whether `TextTestFunction` holds the test (else every inline description passes the
  /// SELECT, and the service's own test decides).
  var inlineTested: Bool
}

import ExpenseCore
import ExpenseStore
import Foundation
import PostgresNIO

/// Expenses: reading, adding by hand, editing and deleting (the rollup follows by trigger).
extension PostgresStore {
  /// The columns `expense(from:)` reads, with the file's name.
  static let expenseColumns = """
    SELECT e.key, e.id, to_char(e.date, 'YYYY-MM-DD'), e.amount_minor, e.currency, e.description, e.category,
           e.account, f.name, e.source_line, e.category_source

    """ + expenseFrom
  /// The tables `expenseColumns` reads.
  static let expenseFrom = "FROM expense e LEFT JOIN import_file f ON f.ledger_id = e.ledger_id AND f.id = e.file_id"

  struct StoredRow {
    var key: Int64
    var expense: Expense
    var source: CategorySource
  }

  func storedRow(_ row: PostgresRow) throws -> StoredRow {
    let (key, id, date, minor, code, description, category, account, file, line, source) = try row.decode(
      (Int64, Int64, String, Int64, String, String, String?, String?, String?, Int64?, Int16).self)
    guard let currency = Currency(code: code) else {
      throw StoreError.unreadable(path: location.redacted, detail: "expense \(id): currency \(code)")
    }
    var expense = Expense(
      id: id, date: try CivilDate.parseStored(date), amount: Money(minor: minor, currency: currency),
      description: description, category: category, account: account,
      source: file.map { Expense.Source(file: $0, line: Int(clamping: line ?? 0)) })
    let categorySource = CategorySource(rawValue: Int(source)) ?? .none
    expense.categorySource = categorySource
    return StoredRow(key: key, expense: expense, source: categorySource)
  }

  func storedRow(_ connection: BlockingConnection, id: Int64) throws -> StoredRow? {
    let query = PostgresQuery(
      unsafeSQL: Self.expenseColumns + " WHERE e.ledger_id = $1 AND e.key = expense_key_of($1, $2)",
      binds: try binds(ledger, id))
    return try connection.query(query).first.map(storedRow)
  }

  /// Bindings for a hand-built query.
  func binds(_ values: any PostgresDynamicTypeEncodable...) throws -> PostgresBindings {
    var binds = PostgresBindings(capacity: values.count)
    for value in values { binds.append(value) }
    return binds
  }

  /// Rows matching the filters, newest first (`order`: the SQL after ORDER BY).
  func expenseRows(
    _ connection: BlockingConnection, month: Month?, category: String?, after key: Int64? = nil,
    first: CivilDate? = nil, last: CivilDate? = nil, order: String, limit: Int?
  ) throws -> [StoredRow] {
    var (sql, binds) = try expenseRowsSQL(
      connection, month: month, category: category, after: key, first: first, last: last)
    sql += " ORDER BY " + order
    if let limit {
      binds.append(Int64(max(0, limit)))
      sql += " LIMIT $\(binds.count)"
    }
    return try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds)).map(storedRow)
  }

  /// The SELECT of `expenseRows` with its filters, before its order.
  func expenseRowsSQL(
    _ connection: BlockingConnection, month: Month?, category: String?, after key: Int64? = nil,
    first: CivilDate? = nil, last: CivilDate? = nil
  ) throws -> (String, PostgresBindings) {
    var sql = Self.expenseColumns + " WHERE e.ledger_id = $1"
    var binds = PostgresBindings()
    binds.append(ledger)
    func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
      binds.append(value)
      return "$\(binds.count)"
    }
    if let month {
      let keys = ExpenseKey.range(from: month.firstDay, through: month.lastDay)
      sql += " AND e.key BETWEEN \(bind(keys.lowerBound)) AND \(bind(keys.upperBound))"
    }
    if let first { sql += " AND e.date >= \(bind(first.description))::date" }
    if let last { sql += " AND e.date <= \(bind(last.description))::date" }
    if let key { sql += " AND e.key < \(bind(key))" }
    if let category {
      if CategoryName.key(category) == CategoryName.key(uncategorizedName) {
        sql += " AND e.category IS NULL"
      } else {
        let stored = try categoryNames(connection).known(category) ?? category
        sql += " AND e.category = \(bind(stored))"
      }
    }
    return (sql, binds)
  }

  public func expenses(month: Month?, category: String?, limit: Int?) throws -> [Expense] {
    try read { connection in
      try expenseRows(connection, month: month, category: category, order: "e.date DESC, e.id DESC", limit: limit)
        .map(\.expense)
    }
  }

  public func expenses(from first: CivilDate?, through last: CivilDate?) throws -> [Expense] {
    try read { connection in
      try expenseRows(
        connection, month: nil, category: nil, first: first, last: last, order: "e.date, e.id", limit: nil
      ).map(\.expense)
    }
  }

  public func expenseCount(month: Month?) throws -> Int {
    try read { connection in
      let rows: PostgresQueryResult
      if let month {
        rows = try connection.query(
          """
          SELECT COALESCE(SUM(count), 0)::bigint FROM month_total
          WHERE ledger_id = \(ledger) AND month = \(month.firstDay.description)::date
          """)
      } else {
        rows = try connection.query("SELECT COUNT(*) FROM expense WHERE ledger_id = \(ledger)")
      }
      return Int(clamping: try rows.first?.decode(Int64.self) ?? 0)
    }
  }

  /// Keyset pages on the row key, as the SQLite store (and with the same cursors).
  public func expensePage(month: Month?, category: String?, after cursor: String?, limit: Int) throws -> ExpensePage {
    let key = try ExpensePage.key(of: cursor)
    let size = max(0, limit)
    return try read { connection in
      let rows = try expenseRows(
        connection, month: month, category: category, after: key, order: "e.key DESC", limit: size + 1)
      let page = rows.prefix(size)
      let next = rows.count > size ? page.last.map { ExpensePage.cursor(afterKey: $0.key) } : nil
      return ExpensePage(expenses: page.map(\.expense), nextCursor: next)
    }
  }

  public func expense(id: Int64) throws -> Expense? {
    try read { connection in try storedRow(connection, id: id)?.expense }
  }

  /// A key on `date` no row uses yet, for rows without a fingerprint (as the SQLite store).
  func freeKey(_ connection: BlockingConnection, on date: CivilDate, seed: Int64) throws -> Int64 {
    try ExpenseKey.free(on: date, seed: seed) { key in
      try connection.query("SELECT 1 FROM expense WHERE ledger_id = \(ledger) AND key = \(key)").first != nil
    }
  }

  /// The file's id in `import_file`, added when new.
  func fileID(_ connection: BlockingConnection, name: String) throws -> Int64 {
    try connection.query(
      "INSERT INTO import_file (ledger_id, name) VALUES (\(ledger), \(name)) ON CONFLICT (ledger_id, name) DO NOTHING")
    let rows = try connection.query("SELECT id FROM import_file WHERE ledger_id = \(ledger) AND name = \(name)")
    guard let id = try rows.first?.decode(Int64.self) else { throw StoreError.sqlite("import file not recorded") }
    return id
  }

  /// Takes `count` ids from the ledger's counter; returns the first.
  func takeIDs(_ connection: BlockingConnection, _ count: Int64) throws -> Int64 {
    let rows = try connection.query(
      """
      UPDATE ledger SET next_expense_id = next_expense_id + \(count) WHERE id = \(ledger)
      RETURNING next_expense_id - \(count)
      """)
    guard let first = try rows.first?.decode(Int64.self) else { throw StoreError.sqlite("no ledger") }
    return first
  }

  public func addExpense(_ expense: Expense) throws -> Expense {
    guard expense.date.isSupported else { throw CoreError.dateOutOfRange(expense.date.description) }
    return try write { connection in
      var names = try categoryNames(connection)
      var expense = expense
      expense.category = names.canonical(expense.category)
      let id = try takeIDs(connection, 1)
      let key = try freeKey(connection, on: expense.date, seed: id)
      let file = try expense.source.map { try fileID(connection, name: $0.file) }
      let source: CategorySource = expense.category == nil ? .none : file == nil ? .hand : .file
      try connection.query(
        """
        INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, category, account,
                             file_id, source_line, category_source)
        VALUES (\(ledger), \(key), \(id), \(expense.date.description)::date, \(expense.amount.minor),
                \(expense.amount.currency.code), \(expense.description), \(expense.category), \(expense.account),
                \(file), \(expense.source.map { Int64($0.line) }), \(Int16(source.rawValue)))
        """)
      try PostgresIdRuns.place(connection, ledger: ledger, id: id, day: ExpenseKey(rawValue: key).day)
      var stored = expense
      stored.id = id
      stored.categorySource = source
      return stored
    }
  }

  /// The ids of the split transaction `id` is a part of, in order; nil for an ordinary row.
  func splitParts(_ connection: BlockingConnection, of id: Int64) throws -> [Int64]? {
    let rows = try connection.query(
      """
      SELECT p.id FROM split_part p JOIN split_part me ON me.ledger_id = p.ledger_id AND me.set_id = p.set_id
      WHERE me.ledger_id = \(ledger) AND me.id = \(id) ORDER BY p.id
      """)
    let parts = try rows.map { try $0.decode(Int64.self) }
    return parts.isEmpty ? nil : parts
  }

  public func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense {
    if let date = change.date, !date.isSupported { throw CoreError.dateOutOfRange(date.description) }
    return try write { connection in
      guard let old = try storedRow(connection, id: id) else { throw StoreError.expenseNotFound([id]) }
      if change.movesOrResizes(old.expense), let parts = try splitParts(connection, of: id) {
        throw StoreError.splitPart(id: id, parts: parts, change: .amountOrDate)
      }
      // Known spellings are read only when the category changes.
      var names = change.category == nil ? CategoryNames() : try categoryNames(connection)
      var (new, source) = change.applied(to: old.expense, source: old.source, names: &names)
      let key = new.date == old.expense.date ? old.key : try freeKey(connection, on: new.date, seed: id)
      try connection.query(
        """
        UPDATE expense SET key = \(key), date = \(new.date.description)::date, amount_minor = \(new.amount.minor),
          description = \(new.description), category = \(new.category), account = \(new.account),
          category_source = \(Int16(source.rawValue))
        WHERE ledger_id = \(ledger) AND key = \(old.key)
        """)
      if key != old.key {
        try PostgresIdRuns.place(connection, ledger: ledger, id: id, day: ExpenseKey(rawValue: key).day)
      }
      new.categorySource = source
      return new
    }
  }

  public func deleteExpenses(ids: [Int64], wholeSplits: Bool) throws -> [Expense] {
    try write { connection in
      var seen = Set<Int64>()
      var rows: [StoredRow] = []
      var missing: [Int64] = []
      for id in ids where seen.insert(id).inserted {
        if let row = try storedRow(connection, id: id) { rows.append(row) } else { missing.append(id) }
      }
      if !missing.isEmpty { throw StoreError.expenseNotFound(missing) }
      let named = rows.compactMap(\.expense.id)
      for id in try SplitSets.deletion(
        of: named, wholeSplits: wholeSplits, parts: { try splitParts(connection, of: $0) })
      where seen.insert(id).inserted {
        if let row = try storedRow(connection, id: id) { rows.append(row) }
      }
      let all = rows.compactMap(\.expense.id)
      try dissolvePairs(connection, of: all)
      try connection.query("DELETE FROM split_part WHERE ledger_id = \(ledger) AND id = ANY(\(all))")
      try connection.query("DELETE FROM expense WHERE ledger_id = \(ledger) AND key = ANY(\(rows.map(\.key)))")
      return rows.map(\.expense)
    }
  }
}

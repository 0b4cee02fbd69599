import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// A stored setting, or `nil`.
  public func setting(_ key: String) throws(StoreError) -> String? {
    try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
  }

  /// Expenses, newest first, optionally for one month and/or category (`Uncategorized` selects
  /// rows without one). `limit` caps the rows loaded.
  public func expenses(month: Month? = nil, category: String? = nil, limit: Int? = nil) throws(StoreError)
    -> [Expense]
  {
    var conditions: [String] = []
    var arguments: StatementArguments = []
    if let month {
      let keys = ExpenseKey.range(from: month.firstDay, through: month.lastDay)
      conditions.append("key BETWEEN ? AND ?")
      arguments += [keys.lowerBound, keys.upperBound]
    }
    if let category {
      if category == uncategorizedName {
        conditions.append("category IS NULL")
      } else {
        conditions.append("category = ?")
        arguments += [try categoryNames().known(category) ?? category]
      }
    }
    var sql = """
      SELECT e.id, date, amountMinor, currency, description, category, account, f.name AS sourceFile, sourceLine,
             categorySource
      FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
      """
    if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
    sql += " ORDER BY date DESC, e.id DESC, e.key DESC"
    if let limit { sql += " LIMIT \(limit)" }
    return try read { db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).map(AppDatabase.expense(from:))
    }
  }

  static func expense(from row: Row) throws -> Expense {
    do { return try decodeExpense(row) } catch let error as RowDecodingError {
      throw UnreadableValue(detail: "expense \(row["id"] as DatabaseValue): \(error)")
    }
  }

  private static func decodeExpense(_ row: Row) throws -> Expense {
    let currencyCode: String = try row.decode(forColumn: "currency")
    guard let currency = Currency(code: currencyCode) else {
      throw StoreError.sqlite("unknown currency \(currencyCode) in expense \(row["id"] as Int64)")
    }
    let file: String? = try row.decode(forColumn: "sourceFile")
    let line: Int? = try row.decode(forColumn: "sourceLine")
    var expense = Expense(
      id: try row.decode(forColumn: "id"), date: try CivilDate.parseStored(try row.decode(forColumn: "date")),
      amount: Money(minor: try row.decode(forColumn: "amountMinor"), currency: currency),
      description: try row.decode(forColumn: "description"), category: try row.decode(forColumn: "category"),
      account: try row.decode(forColumn: "account"),
      source: file.map { Expense.Source(file: $0, line: line ?? 0) })
    if row.hasColumn("categorySource") {
      let code: Int? = try row.decode(forColumn: "categorySource")
      expense.categorySource = code.flatMap(CategorySource.init(rawValue:))
    }
    return expense
  }

  /// Number of stored expenses, for a month or in all.
  public func expenseCount(month: Month? = nil) throws(StoreError) -> Int {
    try read { db in
      if let month {
        return try Int.fetchOne(
          db, sql: "SELECT COALESCE(SUM(count), 0) FROM monthTotal WHERE month = ?", arguments: [month.description])
          ?? 0
      }
      return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense") ?? 0
    }
  }

  /// Per (currency, category, month) sums for the months `from...through`, read from the
  /// `monthTotal` rollup: the cost follows the number of categories, not of rows. With `daily`,
  /// each total carries its money out per day (for shaped pace).
  ///
  /// Only months in `Month.supportedRange` are read: rows an older version stored outside it
  /// (`check` names them) are left out of every report rather than failing it.
  public func monthlyTotals(from requestedFirst: Month, through requestedLast: Month, daily: Bool = false)
    throws(StoreError) -> [CategoryMonthTotal]
  {
    guard let months = Month.supported(from: requestedFirst, through: requestedLast) else { return [] }
    let (first, last) = (months.lowerBound, months.upperBound)
    return try read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT month, currency, category, outflow, inflow, count, inflowCount\(daily ? ", daily" : "")
          FROM monthTotal WHERE month >= ? AND month <= ? AND month GLOB '\(AppDatabase.monthPattern)'
          ORDER BY month, currency, category
          """,
        arguments: [first.description, last.description])
      return try rows.compactMap { row -> CategoryMonthTotal? in
        // Decoded with `try`: a damaged or hand-edited rollup (a REAL where an integer belongs)
        // is an error naming the month, never a trap.
        do {
          guard let currency = Currency(code: try row.decode(String.self, forColumn: "currency")) else { return nil }
          let category: String = try row.decode(forColumn: "category")
          return CategoryMonthTotal(
            currency: currency, category: category.isEmpty ? nil : category,
            month: try Month.parseStored(try row.decode(forColumn: "month")),
            outflowMinor: try row.decode(forColumn: "outflow"),
            inflowMinor: try row.decode(forColumn: "inflow"), count: try row.decode(forColumn: "count"),
            inflowCount: try row.decode(forColumn: "inflowCount"),
            dailyOutflowMinor: daily ? DailyOutflow.decode(row["daily"]) : nil)
        } catch {
          throw UnreadableValue(
            detail: "the monthly totals of \(row["month"] as DatabaseValue) (\(row as Row)): \(error)")
        }
      }
    }
  }

  /// The first month with any transaction, per currency (from the small rollup table), among
  /// the months in `Month.supportedRange` (what an older version stored outside is left out).
  ///
  /// Why per currency, by key: a `GROUP BY currency` read the whole rollup (every row's daily
  /// blob) for every report, about 15M instructions at 1M expenses, a tenth of a busy month's
  /// JSON report. The rollup is keyed month first, so each currency's first month is a walk
  /// from the start that stops at its first row. The currencies are those of `currencyCode`,
  /// which holds every currency an expense was ever written with (its entries are never
  /// deleted), so every currency the rollup can hold; spellings that read as one currency give
  /// the earliest of their months.
  public func historyStart() throws(StoreError) -> [Currency: Month] {
    try read { db in
      var result: [Currency: Month] = [:]
      let codes = try DatabaseValue.fetchAll(db, sql: "SELECT code FROM currencyCode ORDER BY id")
      for value in codes {
        guard let code = String.fromDatabaseValue(value), let currency = Currency(code: code) else { continue }
        let first = try String.fetchOne(
          db,
          sql: """
            SELECT month FROM monthTotal
            WHERE month >= ? AND month <= ? AND month GLOB '\(AppDatabase.monthPattern)' AND currency = ?
            ORDER BY month LIMIT 1
            """,
          arguments: [
            Month.supportedRange.lowerBound.description, Month.supportedRange.upperBound.description, code,
          ])
        if let first, let month = try? Month.parse(first), result[currency].map({ month < $0 }) ?? true {
          result[currency] = month
        }
      }
      return result
    }
  }

  /// The latest month with any transaction in `Month.supportedRange`, or `nil` when there is none.
  public func latestMonth() throws(StoreError) -> Month? {
    try read { db in
      // The table is keyed by date first: the last row by key is the latest date. A row an older
      // version stored outside the supported range may have a key that is not its date: the
      // date itself is checked too.
      let keys = ExpenseKey.range(
        from: CivilDate.supportedRange.lowerBound, through: CivilDate.supportedRange.upperBound)
      let dates = try String.fetchCursor(
        db, sql: "SELECT date FROM expense WHERE key BETWEEN ? AND ? ORDER BY key DESC",
        arguments: [keys.lowerBound, keys.upperBound])
      while let text = try dates.next() {
        if let date = try? CivilDate.parse(text) { return date.calendarMonth }
      }
      return nil
    }
  }

  /// All budgets, defaults and overrides. A month override an older version stored outside
  /// `Month.supportedRange` (`999-05`) is left out: `check` names it, `budget remove` removes it.
  public func budgets() throws(StoreError) -> [Budget] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT category, currency, month, amountMinor FROM budget ORDER BY category, currency, month"
      )
      .compactMap { row -> Budget? in
        // Decoded with `try`: a hand-edited value (a REAL amount, a NULL) is an error, never a trap.
        guard let currency = Currency(code: try row.decode(String.self, forColumn: "currency")) else { return nil }
        let text: String = try row.decode(forColumn: "month")
        let month = text.isEmpty ? nil : try? Month.parse(text)
        guard text.isEmpty || month != nil else { return nil }
        return Budget(
          category: try row.decode(forColumn: "category"),
          amount: Money(minor: try row.decode(forColumn: "amountMinor"), currency: currency), month: month)
      }
    }
  }

  /// Category kinds set by the user (`Transfers` is a transfer unless set otherwise).
  public func categoryKinds() throws(StoreError) -> [String: CategoryKind] {
    try read { db in
      var kinds: [String: CategoryKind] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT name, kind FROM categoryKind") {
        kinds[row["name"]] = CategoryKind(rawValue: row["kind"]) ?? .expense
      }
      return kinds
    }
  }

  /// Every category known from expenses, budgets, kinds and rules, with its kind and number of
  /// expenses (counted from the `monthTotal` rollup, not by scanning the expenses).
  public func categories() throws(StoreError) -> [CategorySummary] {
    try read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT name, COALESCE(k.kind, CASE WHEN name = ? COLLATE NOCASE THEN 'transfer' ELSE 'expense' END) AS kind,
                 COALESCE(e.n, 0) AS n FROM (
            SELECT category AS name FROM monthTotal WHERE category <> ''
            UNION SELECT category FROM budget
            UNION SELECT name FROM categoryKind
            UNION SELECT category FROM rule
          ) AS names
          LEFT JOIN categoryKind k USING (name)
          LEFT JOIN (SELECT category, SUM(count) AS n FROM monthTotal GROUP BY category) e ON e.category = names.name
          ORDER BY name
          """, arguments: [transfersName])
      var result = rows.map {
        CategorySummary(name: $0["name"], kind: CategoryKind(rawValue: $0["kind"]) ?? .expense, expenseCount: $0["n"])
      }
      let uncategorized =
        try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(count), 0) FROM monthTotal WHERE category = ''") ?? 0
      if uncategorized > 0 {
        result.append(CategorySummary(name: uncategorizedName, kind: .expense, expenseCount: uncategorized))
      }
      return result
    }
  }

  /// All rules in the order they are tried.
  public func rules() throws(StoreError) -> [CategoryRule] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT id, pattern, category, field FROM rule ORDER BY id").map {
        CategoryRule(
          id: $0["id"], pattern: $0["pattern"], category: $0["category"],
          field: CategoryRule.Field(rawValue: $0["field"]) ?? .description)
      }
    }
  }

  /// Saved expanded/collapsed states by section id.
  public func sectionStates() throws(StoreError) -> [String: Bool] {
    try read { db in
      var states: [String: Bool] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT sectionId, expanded FROM sectionPreference") {
        states[row["sectionId"]] = row["expanded"]
      }
      return states
    }
  }

  /// A saved import profile's JSON, or throws `profileNotFound`.
  public func profile(named name: String) throws(StoreError) -> String {
    let json = try read { db in
      try String.fetchOne(db, sql: "SELECT options FROM importProfile WHERE name = ?", arguments: [name])
    }
    guard let json else { throw .profileNotFound(name) }
    return json
  }

  /// Names of the saved import profiles.
  public func profileNames() throws(StoreError) -> [String] {
    try read { db in try String.fetchAll(db, sql: "SELECT name FROM importProfile ORDER BY name") }
  }
}

extension AppDatabase {
  /// A GLOB matching a stored `YYYY-MM` with a four-digit year (older versions wrote `999-05`).
  static let monthPattern = "[0-9][0-9][0-9][0-9]-[0-9][0-9]"
}

import ExpenseCore
import ExpenseStore
import PostgresNIO

/// Budgets, categories and their kinds, and rules.
extension PostgresStore {
  public func budgets() throws -> [Budget] {
    try snapshotRead("budgets") { connection in
      let rows = try connection.query(
        """
        SELECT category, currency, to_char(month, 'YYYY-MM'), amount_minor FROM budget WHERE ledger_id = \(ledger)
        ORDER BY category COLLATE "C", currency COLLATE "C", month NULLS FIRST
        """)
      return try rows.compactMap { row -> Budget? in
        let (category, code, month, minor) = try row.decode((String, String, String?, Int64).self)
        guard let currency = Currency(code: code) else { return nil }
        return Budget(
          category: category, amount: Money(minor: minor, currency: currency),
          month: try month.map { try Month.parseStored($0) })
      }
    }
  }

  public func saveBudget(_ budget: Budget) throws {
    try budget.checkSavable()
    try write { connection in
      let category = try budgetSpelling(connection, budget.category)
      try connection.query(
        """
        INSERT INTO budget (ledger_id, category, currency, month, amount_minor)
        VALUES (\(ledger), \(category), \(budget.amount.currency.code), \(budget.month?.firstDay.description)::date,
                \(budget.amount.minor))
        ON CONFLICT (ledger_id, category, currency, month) DO UPDATE SET amount_minor = excluded.amount_minor
        """)
    }
  }

  /// The spelling a budget for `name` is stored under (as the SQLite store): a known category
  /// takes the budget's spelling everywhere unless a budget already named it.
  func budgetSpelling(_ connection: BlockingConnection, _ name: String) throws -> String {
    let decision = try BudgetSpelling.decide(name, known: try categoryNames(connection)) { known in
      try connection.query("SELECT 1 FROM budget WHERE ledger_id = \(ledger) AND category = \(known) LIMIT 1")
        .first != nil
    }
    guard case .rename(let known, let tidy) = decision else { return decision.spelling }
    // The rollup follows the expenses' rename by trigger.
    try connection.query("UPDATE expense SET category = \(tidy) WHERE ledger_id = \(ledger) AND category = \(known)")
    try connection.query("UPDATE rule SET category = \(tidy) WHERE ledger_id = \(ledger) AND category = \(known)")
    try connection.query("UPDATE category_kind SET name = \(tidy) WHERE ledger_id = \(ledger) AND name = \(known)")
    try connection.query("UPDATE budget SET category = \(tidy) WHERE ledger_id = \(ledger) AND category = \(known)")
    return tidy
  }

  public func removeBudget(category: String, month: Month?, currency: Currency?) throws {
    try write { connection in
      let stored = try categoryNames(connection).known(category) ?? category
      let result = try connection.query(
        """
        DELETE FROM budget WHERE ledger_id = \(ledger) AND category = \(stored)
          AND month IS NOT DISTINCT FROM \(month?.firstDay.description)::date
          AND (\(currency?.code)::text IS NULL OR currency = \(currency?.code))
        """)
      if (result.metadata.rows ?? 0) == 0 { throw StoreError.budgetNotFound(category: category, month: month) }
    }
  }

  public func categoryKinds() throws -> [String: CategoryKind] {
    try snapshotRead("kinds") { connection in
      var kinds: [String: CategoryKind] = [:]
      for row in try connection.query("SELECT name, kind FROM category_kind WHERE ledger_id = \(ledger)") {
        let (name, kind) = try row.decode((String, String).self)
        kinds[name] = CategoryKind(rawValue: kind) ?? .expense
      }
      return kinds
    }
  }

  public func categories() throws -> [CategorySummary] {
    try read { connection in
      let rows = try connection.query(
        """
        SELECT names.name,
               COALESCE(k.kind, CASE WHEN lower(names.name) = lower(\(transfersName)) THEN 'transfer' ELSE 'expense' END),
               COALESCE(e.n, 0)::bigint
        FROM (
          SELECT category AS name FROM month_total WHERE ledger_id = \(ledger) AND category <> ''
          UNION SELECT category FROM budget WHERE ledger_id = \(ledger)
          UNION SELECT name FROM category_kind WHERE ledger_id = \(ledger)
          UNION SELECT category FROM rule WHERE ledger_id = \(ledger)
        ) AS names
        LEFT JOIN category_kind k ON k.ledger_id = \(ledger) AND k.name = names.name
        LEFT JOIN (SELECT category, SUM(count) AS n FROM month_total WHERE ledger_id = \(ledger) GROUP BY category) e
          ON e.category = names.name
        ORDER BY names.name COLLATE "C"
        """)
      var result = try rows.map { row -> CategorySummary in
        let (name, kind, count) = try row.decode((String, String, Int64).self)
        return CategorySummary(
          name: name, kind: CategoryKind(rawValue: kind) ?? .expense, expenseCount: Int(clamping: count))
      }
      let uncategorized = try connection.query(
        "SELECT COALESCE(SUM(count), 0)::bigint FROM month_total WHERE ledger_id = \(ledger) AND category = ''")
      let count = Int(clamping: try uncategorized.first?.decode(Int64.self) ?? 0)
      if count > 0 { result.append(CategorySummary(name: uncategorizedName, kind: .expense, expenseCount: count)) }
      return result
    }
  }

  public func categoryNames() throws -> CategoryNames {
    try read { connection in try categoryNames(connection) }
  }

  public func setCategoryKind(_ name: String, kind: CategoryKind) throws {
    try write { connection in
      var names = try categoryNames(connection)
      try connection.query(
        """
        INSERT INTO category_kind (ledger_id, name, kind) VALUES (\(ledger), \(names.canonical(name) ?? name), \(kind.rawValue))
        ON CONFLICT (ledger_id, name) DO UPDATE SET kind = excluded.kind
        """)
    }
  }

  public func removeCategoryKind(_ name: String) throws {
    try write { connection in
      try connection.query("DELETE FROM category_kind WHERE ledger_id = \(ledger) AND name = \(name)")
    }
  }

  public func forgetCategory(_ name: String) throws -> Bool {
    try write { connection in
      guard let stored = try categoryNames(connection).known(name) else { return false }
      let used = try connection.query(
        """
        SELECT EXISTS (SELECT 1 FROM month_total WHERE ledger_id = \(ledger) AND category = \(stored))
            OR EXISTS (SELECT 1 FROM budget WHERE ledger_id = \(ledger) AND category = \(stored))
            OR EXISTS (SELECT 1 FROM rule WHERE ledger_id = \(ledger) AND category = \(stored))
        """)
      if try used.first?.decode(Bool.self) == true { throw StoreError.categoryInUse(stored) }
      let result = try connection.query(
        "DELETE FROM category_kind WHERE ledger_id = \(ledger) AND name = \(stored)")
      return (result.metadata.rows ?? 0) > 0
    }
  }

  public func rules() throws -> [CategoryRule] {
    try read { connection in try rules(connection) }
  }

  func rules(_ connection: BlockingConnection) throws -> [CategoryRule] {
    try connection.query("SELECT id, pattern, category, field FROM rule WHERE ledger_id = \(ledger) ORDER BY id")
      .map { row in
        let (id, pattern, category, field) = try row.decode((Int64, String, String, String).self)
        return CategoryRule(
          id: id, pattern: pattern, category: category, field: CategoryRule.Field(rawValue: field) ?? .description)
      }
  }

  public func addRule(pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try write { connection in
      var names = try categoryNames(connection)
      let category = names.canonical(category) ?? category
      let taken = try connection.query(
        "UPDATE ledger SET next_rule_id = next_rule_id + 1 WHERE id = \(ledger) RETURNING next_rule_id - 1")
      guard let id = try taken.first?.decode(Int64.self) else { throw StoreError.sqlite("no ledger") }
      try connection.query(
        """
        INSERT INTO rule (ledger_id, id, pattern, category, field)
        VALUES (\(ledger), \(id), \(pattern), \(category), \(field.rawValue))
        """)
      return CategoryRule(id: id, pattern: pattern, category: category, field: field)
    }
  }

  public func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try write { connection in
      var names = try categoryNames(connection)
      let category = names.canonical(category) ?? category
      try connection.query(
        """
        INSERT INTO rule (ledger_id, id, pattern, category, field)
        VALUES (\(ledger), \(id), \(pattern), \(category), \(field.rawValue))
        ON CONFLICT (ledger_id, id) DO UPDATE SET pattern = excluded.pattern, category = excluded.category,
                                                  field = excluded.field
        """)
      // An id given by the caller is never handed out again by `addRule`.
      try connection.query(
        """
        UPDATE ledger SET next_rule_id = GREATEST(next_rule_id, \(id) + 1)
        WHERE id = \(ledger) AND \(id) < \(Int64.max)
        """)
      return CategoryRule(id: id, pattern: pattern, category: category, field: field)
    }
  }

  public func removeRule(id: Int64) throws {
    try write { connection in
      let result = try connection.query("DELETE FROM rule WHERE ledger_id = \(ledger) AND id = \(id)")
      if (result.metadata.rows ?? 0) == 0 { throw StoreError.ruleNotFound(id) }
    }
  }

  public func recategorize(
    from sources: [CategorySource], as source: CategorySource, dryRun: Bool, _ decide: (RecategorizeRow) -> String?
  ) throws {
    try write(keep: !dryRun) { connection in
      let codes = sources.map { Int16($0.rawValue) }
      let rows = try connection.query(
        """
        SELECT key, description, account, category, id, category_source FROM expense
        WHERE ledger_id = \(ledger) AND category_source = ANY(\(codes)::smallint[])
        """)
      var keys: [Int64] = []
      var categories: [String] = []
      for row in rows {
        let (key, description, account, current, id, code) = try row.decode(
          (Int64, String, String?, String?, Int64, Int16).self)
        guard
          let category = decide(
            RecategorizeRow(
              description: description, account: account, category: current, id: id,
              source: CategorySource(rawValue: Int(code)) ?? .none))
        else { continue }
        keys.append(key)
        categories.append(category)
      }
      if !dryRun && !keys.isEmpty {
        // The rollup follows the rows by trigger.
        try connection.query(
          """
          UPDATE expense e SET category = u.category, category_source = \(Int16(source.rawValue))
          FROM unnest(\(keys)::bigint[], \(categories)::text[]) AS u(key, category)
          WHERE e.ledger_id = \(ledger) AND e.key = u.key
          """)
      }
    }
  }
}

import ExpenseCore
import ExpenseStore
import PostgresNIO

/// The whole ledger, read and written for `expenses copy` (`LedgerStore.readLedger`,
/// `loadLedger`): the read is one `REPEATABLE READ` transaction, the load one write
/// transaction holding the ledger's row lock, so a failure anywhere leaves the ledger empty.
extension PostgresStore {
  public func readLedger<T>(_ body: (LedgerContents, any StoredExpenseReader) throws -> T) throws -> T {
    try read { connection in
      try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      do {
        let contents = try ledgerContents(connection)
        let value = try body(contents, ExpenseTableReader(store: self, connection: connection))
        try connection.execute("COMMIT")
        return value
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }
  }

  /// Everything but the expenses, in the caller's transaction.
  func ledgerContents(_ connection: BlockingConnection) throws -> LedgerContents {
    var contents = LedgerContents()
    let counters = try connection.query("SELECT next_expense_id, next_rule_id FROM ledger WHERE id = \(ledger)")
    if let row = counters.first { (contents.nextExpenseID, contents.nextRuleID) = try row.decode((Int64, Int64).self) }
    // Import ids come from one identity for every ledger, which never gives an id twice: a
    // target that starts past its last value never gives an id this ledger showed, removed
    // ones included.
    let importMax = try connection.query(
      """
      SELECT GREATEST(COALESCE(pg_sequence_last_value(pg_get_serial_sequence('import_record', 'id')::regclass), 0),
                      (SELECT COALESCE(max(id), 0) FROM import_record WHERE ledger_id = \(ledger))) + 1
      """)
    if let row = importMax.first { contents.nextImportID = try row.decode(Int64.self) }
    for row in try connection.query(
      """
      SELECT category, currency, to_char(month, 'YYYY-MM'), amount_minor FROM budget WHERE ledger_id = \(ledger)
      ORDER BY category COLLATE "C", currency COLLATE "C", month NULLS FIRST
      """)
    {
      let (category, code, month, minor) = try row.decode((String, String, String?, Int64).self)
      guard let currency = Currency(code: code) else {
        throw StoreError.unreadable(path: location.redacted, detail: "budget \(category): currency \(code)")
      }
      contents.budgets.append(
        Budget(
          category: category, amount: Money(minor: minor, currency: currency),
          month: try month.map { try Month.parseStored($0) }))
    }
    for row in try connection.query("SELECT name, kind FROM category_kind WHERE ledger_id = \(ledger)") {
      let (name, kind) = try row.decode((String, String).self)
      guard let value = CategoryKind(rawValue: kind) else {
        throw StoreError.unreadable(path: location.redacted, detail: "category \(name): kind \(kind)")
      }
      contents.kinds[name] = value
    }
    for row in try connection.query(
      "SELECT id, pattern, category, field FROM rule WHERE ledger_id = \(ledger) ORDER BY id")
    {
      let (id, pattern, category, field) = try row.decode((Int64, String, String, String).self)
      guard let value = CategoryRule.Field(rawValue: field) else {
        throw StoreError.unreadable(path: location.redacted, detail: "rule \(id): field \(field)")
      }
      contents.rules.append(CategoryRule(id: id, pattern: pattern, category: category, field: value))
    }
    for row in try connection.query(
      "SELECT section_id, expanded FROM section_preference WHERE ledger_id = \(ledger)")
    {
      let (section, expanded) = try row.decode((String, Bool).self)
      contents.sectionStates[section] = expanded
    }
    for row in try connection.query("SELECT key, value FROM setting WHERE ledger_id = \(ledger)") {
      let (key, value) = try row.decode((String, String).self)
      contents.settings[key] = value
    }
    for row in try connection.query("SELECT name, options FROM import_profile WHERE ledger_id = \(ledger)") {
      let (name, options) = try row.decode((String, String).self)
      contents.profiles[name] = options
    }
    for row in try connection.query(
      """
      SELECT id, file, imported_at, rows, first_id, last_id, to_char(first_date, 'YYYY-MM-DD'),
             to_char(last_date, 'YYYY-MM-DD')
      FROM import_record WHERE ledger_id = \(ledger) ORDER BY id
      """)
    {
      let (id, file, at, count, first, last, firstDate, lastDate) = try row.decode(
        (Int64, String, String?, Int64, Int64, Int64, String, String).self)
      contents.imports.append(
        ImportRecord(
          id: id, file: file, importedAt: at, rows: Int(clamping: count), firstId: first, lastId: last,
          firstDate: try CivilDate.parseStored(firstDate), lastDate: try CivilDate.parseStored(lastDate)))
    }
    for row in try connection.query(
      PostgresQuery(
        unsafeSQL: Self.tokenColumns + " WHERE t.ledger_id = $1 ORDER BY t.name COLLATE \"C\"",
        binds: try binds(ledger)))
    {
      var stored = try storedToken(row)
      stored.token.ledger = ""
      contents.tokens.append(stored)
    }
    for row in try connection.query(
      """
      SELECT user_name, role, since FROM ledger_member WHERE ledger_id = \(ledger) ORDER BY user_name COLLATE "C"
      """)
    {
      let (user, role, since) = try row.decode((String, String, String).self)
      contents.members.append(try membership(user: user, ledger: "", role: role, since: since))
    }
    for row in try connection.query("SELECT id, set_id FROM split_part WHERE ledger_id = \(ledger)") {
      let (id, set) = try row.decode((Int64, Int64).self)
      contents.splitParts[id] = set
    }
    let count = try connection.query("SELECT count(*) FROM expense WHERE ledger_id = \(ledger)")
    contents.expenseCount = Int(try count.first?.decode(Int64.self) ?? 0)
    contents.records = try records(connection, kind: nil)
    contents.nextRecordIDs = try recordCounters(connection)
    return contents
  }

  /// The ledger's expenses in key order, in keyset pages, inside the caller's transaction.
  struct ExpenseTableReader: StoredExpenseReader {
    let store: PostgresStore
    let connection: BlockingConnection

    func forEachBatch(_ body: ([StoredExpense]) throws -> Void) throws {
      var after: Int64?
      while true {
        let where_ = after == nil ? "e.ledger_id = $1" : "e.ledger_id = $1 AND e.key > $2"
        var binds = PostgresBindings(capacity: 3)
        binds.append(store.ledger)
        if let after { binds.append(after) }
        let sql =
          PostgresStore.expenseColumns + " WHERE \(where_) ORDER BY e.key LIMIT \(ledgerCopyBatchSize)"
        let rows = try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds))
        var batch: [StoredExpense] = []
        batch.reserveCapacity(ledgerCopyBatchSize)
        for row in rows {
          let (key, id, date, minor, code, description, category, account, file, line, source) = try row.decode(
            (Int64, Int64, String, Int64, String, String, String?, String?, String?, Int64?, Int16).self)
          guard let currency = Currency(code: code) else {
            throw StoreError.unreadable(path: store.location.redacted, detail: "expense \(id): currency \(code)")
          }
          batch.append(
            StoredExpense(
              key: key, id: id, date: try CivilDate.parseStored(date), amount: Money(minor: minor, currency: currency),
              description: description, category: category, account: account, sourceFile: file, sourceLine: line,
              categorySource: Int(source)))
        }
        if !batch.isEmpty { try body(batch) }
        guard batch.count == ledgerCopyBatchSize, let last = batch.last else { return }
        after = last.key
      }
    }
  }

  public func loadLedger(
    _ contents: LedgerContents, expenses: (_ sink: ([StoredExpense]) throws -> Void) throws -> Void
  ) throws {
    try write { connection in
      let held = try ledgerContents(connection)
      guard held.isEmpty else {
        throw StoreError.ledgerNotEmpty(
          path: location.redacted, ledger: ledgerName, what: LedgerContents.describe(held))
      }
      try connection.query(
        """
        UPDATE ledger SET next_expense_id = \(contents.nextExpenseID), next_rule_id = \(contents.nextRuleID)
        WHERE id = \(ledger)
        """)
      var files: [String: Int64] = [:]
      try expenses { batch in
        for row in batch where !row.date.isSupported { throw CoreError.dateOutOfRange(row.date.description) }
        for name in Set(batch.compactMap(\.sourceFile)) where files[name] == nil {
          files[name] = try fileID(connection, name: name)
        }
        try connection.query(
          """
          INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, category, account,
                               file_id, source_line, category_source)
          SELECT \(ledger), u.key, u.id, u.date::date, u.minor, u.currency, u.description,
                 CASE WHEN u.has_category THEN u.category END, CASE WHEN u.has_account THEN u.account END,
                 NULLIF(u.file, 0), CASE WHEN u.has_line THEN u.line END, u.source
          FROM unnest(\(batch.map(\.key)), \(batch.map(\.id)), \(batch.map(\.date.description)),
                      \(batch.map(\.amount.minor)), \(batch.map(\.amount.currency.code)), \(batch.map(\.description)),
                      \(batch.map { $0.category ?? "" }), \(batch.map { $0.category != nil }),
                      \(batch.map { $0.account ?? "" }), \(batch.map { $0.account != nil }),
                      \(batch.map { $0.sourceFile.flatMap { files[$0] } ?? 0 }),
                      \(batch.map { $0.sourceLine ?? 0 }), \(batch.map { $0.sourceLine != nil }),
                      \(batch.map { Int16(clamping: $0.categorySource) }))
            AS u(key, id, date, minor, currency, description, category, has_category, account, has_account, file,
                 line, has_line, source)
          """)
      }
      try PostgresIdRuns.rebuild(connection, ledger: ledger)
      try load(records: contents.records, next: contents.nextRecordIDs, connection)
      let parts = contents.splitParts.sorted { $0.key < $1.key }
      if !parts.isEmpty {
        try connection.query(
          """
          INSERT INTO split_part (ledger_id, id, set_id)
          SELECT \(ledger), u.id, u.set_id FROM unnest(\(parts.map(\.key)), \(parts.map(\.value))) AS u(id, set_id)
          """)
      }
      for budget in contents.budgets {
        try connection.query(
          """
          INSERT INTO budget (ledger_id, category, currency, month, amount_minor)
          VALUES (\(ledger), \(budget.category), \(budget.amount.currency.code),
                  \(budget.month?.firstDay.description)::date, \(budget.amount.minor))
          """)
      }
      for (name, kind) in contents.kinds.sorted(by: { $0.key < $1.key }) {
        try connection.query(
          "INSERT INTO category_kind (ledger_id, name, kind) VALUES (\(ledger), \(name), \(kind.rawValue))")
      }
      for rule in contents.rules {
        try connection.query(
          """
          INSERT INTO rule (ledger_id, id, pattern, category, field)
          VALUES (\(ledger), \(rule.id), \(rule.pattern), \(rule.category), \(rule.field.rawValue))
          """)
      }
      for (section, expanded) in contents.sectionStates.sorted(by: { $0.key < $1.key }) {
        try connection.query(
          "INSERT INTO section_preference (ledger_id, section_id, expanded) VALUES (\(ledger), \(section), \(expanded))"
        )
      }
      for (key, value) in contents.settings.sorted(by: { $0.key < $1.key }) {
        try connection.query("INSERT INTO setting (ledger_id, key, value) VALUES (\(ledger), \(key), \(value))")
      }
      for (name, options) in contents.profiles.sorted(by: { $0.key < $1.key }) {
        try connection.query(
          "INSERT INTO import_profile (ledger_id, name, options) VALUES (\(ledger), \(name), \(options))")
      }
      for record in contents.imports {
        try connection.query(
          """
          INSERT INTO import_record (ledger_id, id, file, imported_at, rows, first_id, last_id, first_date, last_date)
          VALUES (\(ledger), \(record.id), \(record.file), \(record.importedAt), \(Int64(record.rows)),
                  \(record.firstId), \(record.lastId), \(record.firstDate.description)::date,
                  \(record.lastDate.description)::date)
          """)
      }
      // Ids given here come from another store: the identity must go past them, or the next
      // import of any ledger could be given one of them.
      if !contents.imports.isEmpty || contents.nextImportID > 1 {
        try connection.query(
          """
          SELECT setval(s.name, GREATEST(COALESCE(pg_sequence_last_value(s.name::regclass), 1),
                                         (SELECT max(id) FROM import_record), \(contents.nextImportID - 1)))
          FROM (SELECT pg_get_serial_sequence('import_record', 'id') AS name) s
          """)
      }
      // Users and memberships are the directory's.
      try Self.scoped(connection) { connection in
        for member in contents.members {
          try connection.query(
            "INSERT INTO app_user (name, created_at) VALUES (\(member.user), \(member.since)) ON CONFLICT DO NOTHING")
          try connection.query(
            """
            INSERT INTO ledger_member (ledger_id, user_name, role, since)
            VALUES (\(ledger), \(member.user), \(member.role.rawValue), \(member.since))
            ON CONFLICT (ledger_id, user_name) DO UPDATE SET role = excluded.role, since = excluded.since
            """)
        }
      }
      for stored in contents.tokens {
        let token = stored.token
        try connection.query(
          """
          INSERT INTO api_token (ledger_id, name, hash, scope, created_at, expires_at, revoked_at, user_name)
          VALUES (\(ledger), \(token.name), \(stored.hash), \(token.scope.rawValue), \(token.createdAt),
                  \(token.expiresAt), \(token.revokedAt), \(token.user))
          """)
      }
    }
  }
}

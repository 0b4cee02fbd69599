import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// The whole ledger of a SQLite file, read and written for `expenses copy`
/// (`LedgerStore.readLedger`, `loadLedger`).
///
/// Why here and not with the rest of `AppDatabase` in `SQLite/`: it reads and writes the
/// tables as they are, beside the schema's own code, so a change of the schema shows up here
/// as a failing round-trip test (`LedgerCopyTests`) rather than a silent loss.
extension AppDatabase {
  public func readLedger<T>(_ body: (LedgerContents, any StoredExpenseReader) throws -> T) throws -> T {
    // Errors of `body` (the target's) pass through unchanged; the source's own become `StoreError`s.
    var failure: (any Error)?
    let value: T? = try read { db -> T? in
      let contents = try AppDatabase.ledgerContents(db)
      do {
        return try body(contents, ExpenseTableReader(db: db, path: path))
      } catch let error as DatabaseError {
        throw error
      } catch {
        failure = error
        return nil
      }
    }
    if let failure { throw failure }
    guard let value else { throw StoreError.sqlite("the ledger read returned nothing") }
    return value
  }

  /// Everything but the expenses, in the read's transaction.
  static func ledgerContents(_ db: Database) throws -> LedgerContents {
    var contents = LedgerContents()
    contents.nextExpenseID = try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = 'expense'") ?? 1
    let ruleSequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'rule'") ?? 0
    let ruleMax = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM rule") ?? 0
    contents.nextRuleID = max(ruleSequence, ruleMax) + 1
    contents.nextImportID = try AppDatabase.nextImportID(db)
    for row in try Row.fetchAll(
      db, sql: "SELECT category, currency, month, amountMinor FROM budget ORDER BY category, currency, month")
    {
      let code = try row.decode(String.self, atIndex: 1)
      guard let currency = Currency(code: code) else {
        throw UnreadableValue(detail: "budget currency \(code)")
      }
      let month = try row.decode(String.self, atIndex: 2)
      contents.budgets.append(
        Budget(
          category: try row.decode(atIndex: 0), amount: Money(minor: try row.decode(atIndex: 3), currency: currency),
          month: month.isEmpty ? nil : try Month.parseStored(month)))
    }
    for row in try Row.fetchAll(db, sql: "SELECT name, kind FROM categoryKind") {
      let kind = try row.decode(String.self, atIndex: 1)
      guard let value = CategoryKind(rawValue: kind) else { throw UnreadableValue(detail: "category kind \(kind)") }
      contents.kinds[try row.decode(atIndex: 0)] = value
    }
    for row in try Row.fetchAll(db, sql: "SELECT id, pattern, category, field FROM rule ORDER BY id") {
      let field = try row.decode(String.self, atIndex: 3)
      guard let value = CategoryRule.Field(rawValue: field) else {
        throw UnreadableValue(detail: "rule field \(field)")
      }
      contents.rules.append(
        CategoryRule(
          id: try row.decode(atIndex: 0), pattern: try row.decode(atIndex: 1), category: try row.decode(atIndex: 2),
          field: value))
    }
    for row in try Row.fetchAll(db, sql: "SELECT sectionId, expanded FROM sectionPreference") {
      contents.sectionStates[try row.decode(atIndex: 0)] = try row.decode(Bool.self, atIndex: 1)
    }
    for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") {
      contents.settings[try row.decode(atIndex: 0)] = try row.decode(String.self, atIndex: 1)
    }
    for row in try Row.fetchAll(db, sql: "SELECT name, options FROM importProfile") {
      contents.profiles[try row.decode(atIndex: 0)] = try row.decode(String.self, atIndex: 1)
    }
    for row in try Row.fetchAll(
      db, sql: "SELECT id, file, importedAt, rows, firstId, lastId, firstDate, lastDate FROM importRecord ORDER BY id")
    {
      contents.imports.append(
        ImportRecord(
          id: try row.decode(atIndex: 0), file: try row.decode(atIndex: 1), importedAt: try row.decode(atIndex: 2),
          rows: try row.decode(atIndex: 3), firstId: try row.decode(atIndex: 4), lastId: try row.decode(atIndex: 5),
          firstDate: try CivilDate.parseStored(try row.decode(atIndex: 6)),
          lastDate: try CivilDate.parseStored(try row.decode(atIndex: 7))))
    }
    // This file's own ledger: tokens of ledgers kept in files beside it stay with them.
    let own: StatementArguments = [DirectoryName.defaultLedger]
    for row in try Row.fetchAll(db, sql: tokenSelect + " WHERE t.ledgerName = ? ORDER BY t.name", arguments: own) {
      var token = try AppDatabase.token(from: row)
      token.ledger = ""
      contents.tokens.append(StoredToken(token: token, hash: try row.decode(forColumn: "hash")))
    }
    for row in try Row.fetchAll(
      db, sql: "SELECT userName, role, since FROM membership WHERE ledgerName = ? ORDER BY userName", arguments: own)
    {
      contents.members.append(try AppDatabase.membership(from: row, ledger: ""))
    }
    for row in try Row.fetchAll(db, sql: "SELECT id, setId FROM splitPart") {
      contents.splitParts[try row.decode(atIndex: 0)] = try row.decode(Int64.self, atIndex: 1)
    }
    contents.expenseCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense") ?? 0
    (contents.records, contents.nextRecordIDs) = try AppDatabase.records(db)
    return contents
  }

  /// The expense table in key order, in batches, inside the caller's read transaction.
  struct ExpenseTableReader: StoredExpenseReader {
    let db: Database
    let path: String

    func forEachBatch(_ body: ([StoredExpense]) throws -> Void) throws {
      let rows: RowCursor
      do {
        rows = try Row.fetchCursor(
          db,
          sql: """
            SELECT e.key, e.id, e.date, e.amountMinor, e.currency, e.description, e.category, e.account, f.name,
                   e.sourceLine, e.categorySource
            FROM expense e LEFT JOIN importFile f ON f.id = e.fileId ORDER BY e.key
            """)
      } catch {
        throw AppDatabase.map(error, path: path)
      }
      var batch: [StoredExpense] = []
      batch.reserveCapacity(ledgerCopyBatchSize)
      while let row = try next(rows) {
        batch.append(row)
        if batch.count == ledgerCopyBatchSize {
          try body(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if !batch.isEmpty { try body(batch) }
    }

    /// The next row, decoded; the source's errors become `StoreError`s here, so that the
    /// errors of `body` (the target's) pass through `forEachBatch` unchanged.
    private func next(_ rows: RowCursor) throws(StoreError) -> StoredExpense? {
      do {
        guard let row = try rows.next() else { return nil }
        let code = try row.decode(String.self, atIndex: 4)
        let id = try row.decode(Int64.self, atIndex: 1)
        guard let currency = Currency(code: code) else {
          throw UnreadableValue(detail: "expense \(id): currency \(code)")
        }
        return StoredExpense(
          key: try row.decode(atIndex: 0), id: id, date: try CivilDate.parseStored(try row.decode(atIndex: 2)),
          amount: Money(minor: try row.decode(atIndex: 3), currency: currency),
          description: try row.decode(atIndex: 5), category: try row.decode(atIndex: 6),
          account: try row.decode(atIndex: 7), sourceFile: try row.decode(atIndex: 8),
          sourceLine: try row.decode(atIndex: 9), categorySource: try row.decode(atIndex: 10))
      } catch {
        throw AppDatabase.map(error, path: path)
      }
    }
  }

  public func loadLedger(
    _ contents: LedgerContents, expenses: (_ sink: ([StoredExpense]) throws -> Void) throws -> Void
  ) throws {
    try write { db in
      let held = try AppDatabase.ledgerContents(db)
      guard held.isEmpty else {
        throw StoreError.ledgerNotEmpty(path: path, ledger: "default", what: LedgerContents.describe(held))
      }
      try db.execute(
        sql: "INSERT OR REPLACE INTO counter (name, value) VALUES ('expense', ?)", arguments: [contents.nextExpenseID])
      var files: [String: Int64] = [:]
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO expense (key, id, date, amountMinor, currency, description, category, account, fileId,
                               sourceLine, categorySource)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      try expenses { batch in
        for row in batch {
          var file: Int64?
          if let name = row.sourceFile {
            if let known = files[name] {
              file = known
            } else {
              try db.execute(sql: "INSERT INTO importFile (name) VALUES (?)", arguments: [name])
              files[name] = db.lastInsertedRowID
              file = db.lastInsertedRowID
            }
          }
          try insert.execute(arguments: [
            row.key, row.id, row.date.description, row.amount.minor, row.amount.currency.code, row.description,
            row.category, row.account, file, row.sourceLine, row.categorySource,
          ])
        }
      }
      try IdRuns.rebuild(db)
      try AppDatabase.rebuildAllMonthTotals(db)
      for (id, set) in contents.splitParts.sorted(by: { $0.key < $1.key }) {
        try db.execute(sql: "INSERT INTO splitPart (id, setId) VALUES (?, ?)", arguments: [id, set])
      }
      try AppDatabase.load(records: contents.records, next: contents.nextRecordIDs, db)
      for budget in contents.budgets {
        try db.execute(
          sql: "INSERT INTO budget (category, currency, month, amountMinor) VALUES (?, ?, ?, ?)",
          arguments: [
            budget.category, budget.amount.currency.code, budget.month?.description ?? "", budget.amount.minor,
          ])
      }
      for (name, kind) in contents.kinds.sorted(by: { $0.key < $1.key }) {
        try db.execute(sql: "INSERT INTO categoryKind (name, kind) VALUES (?, ?)", arguments: [name, kind.rawValue])
      }
      for rule in contents.rules {
        try db.execute(
          sql: "INSERT INTO rule (id, pattern, category, field) VALUES (?, ?, ?, ?)",
          arguments: [rule.id, rule.pattern, rule.category, rule.field.rawValue])
      }
      // The next rule id, as the AUTOINCREMENT sequence gives it (a removed rule's id is not reused).
      try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'rule'")
      try db.execute(
        sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('rule', ?)", arguments: [contents.nextRuleID - 1])
      for (section, expanded) in contents.sectionStates.sorted(by: { $0.key < $1.key }) {
        try db.execute(
          sql: "INSERT INTO sectionPreference (sectionId, expanded) VALUES (?, ?)", arguments: [section, expanded])
      }
      for (key, value) in contents.settings.sorted(by: { $0.key < $1.key }) {
        try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
      }
      for (name, options) in contents.profiles.sorted(by: { $0.key < $1.key }) {
        try db.execute(sql: "INSERT INTO importProfile (name, options) VALUES (?, ?)", arguments: [name, options])
      }
      for record in contents.imports {
        try db.execute(
          sql: """
            INSERT INTO importRecord (id, file, importedAt, rows, firstId, lastId, firstDate, lastDate)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            record.id, record.file, record.importedAt, record.rows, record.firstId, record.lastId,
            record.firstDate.description, record.lastDate.description,
          ])
      }
      try AppDatabase.saveNextImportID(db, contents.nextImportID)
      for member in contents.members {
        try db.execute(
          sql: "INSERT INTO appUser (name, createdAt) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
          arguments: [member.user, member.since])
        try db.execute(
          sql: """
            INSERT INTO membership (userName, ledgerName, role, since) VALUES (?, ?, ?, ?)
            ON CONFLICT (userName, ledgerName) DO UPDATE SET role = excluded.role, since = excluded.since
            """,
          arguments: [member.user, DirectoryName.defaultLedger, member.role.rawValue, member.since])
      }
      for stored in contents.tokens {
        let token = stored.token
        try db.execute(
          sql: """
            INSERT INTO apiToken (name, hash, scope, createdAt, expiresAt, revokedAt, userName, ledgerName)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            token.name, stored.hash, token.scope.rawValue, token.createdAt, token.expiresAt, token.revokedAt,
            token.user, DirectoryName.defaultLedger,
          ])
      }
    }
  }
}

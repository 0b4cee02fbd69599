import ExpenseCore
import Foundation
import GRDB

/// Undo and edit: each is one transaction that changes the rows and the `monthTotal` rollup by
/// exactly what changed (old values taken out, new ones added through `MonthTotalDeltas`).
/// Rows are found by their user-facing id through `IdRuns`, never by a scan.
extension AppDatabase {
  static let rowColumns = """
    SELECT e.key, e.id, date, amountMinor, currency, description, category, account, categorySource,
           f.name AS sourceFile, sourceLine
    FROM expense e LEFT JOIN importFile f ON f.id = e.fileId
    """

  /// One expense by id, or `nil`.
  public func expense(id: Int64) throws(StoreError) -> Expense? {
    try read { db in try AppDatabase.storedRow(db, id: id).map(\.expense) }
  }

  /// Where the category of expense `id` came from, or `nil` when there is no such expense.
  public func categorySource(id: Int64) throws(StoreError) -> CategorySource? {
    try read { db in try AppDatabase.storedRow(db, id: id).map(\.source) }
  }

  struct StoredRow {
    var key: Int64
    var expense: Expense
    var source: CategorySource
  }

  static func storedRow(_ db: Database, id: Int64) throws -> StoredRow? {
    guard let key = try IdRuns.key(db, id: id),
      let row = try Row.fetchOne(db, sql: rowColumns + " WHERE e.key = ?", arguments: [key])
    else { return nil }
    return StoredRow(
      key: row["key"], expense: try expense(from: row),
      source: CategorySource(rawValue: row["categorySource"]) ?? .none)
  }

  /// Deletes the expenses with these ids, all or none: if any id is unknown nothing is deleted
  /// and `expenseNotFound` names the unknown ones. Returns the deleted rows.
  @discardableResult
  public func deleteExpenses(ids: [Int64]) throws -> [Expense] {
    try write { db in
      var seen = Set<Int64>()
      var rows: [StoredRow] = []
      var missing: [Int64] = []
      for id in ids where seen.insert(id).inserted {
        if let row = try AppDatabase.storedRow(db, id: id) { rows.append(row) } else { missing.append(id) }
      }
      if !missing.isEmpty { throw StoreError.expenseNotFound(missing) }
      var totals = MonthTotalDeltas()
      let delete = try db.makeStatement(sql: "DELETE FROM expense WHERE key = ?")
      for row in rows {
        totals.remove(date: row.expense.date, amount: row.expense.amount, category: row.expense.category)
        try delete.execute(arguments: [row.key])
      }
      try totals.apply(db)
      return rows.map(\.expense)
    }
  }

  /// Changes one expense; it keeps its id. A new date moves it to a free key on that day (the
  /// key starts with the day), so re-importing the original file will not see it as a
  /// duplicate any more. A category set here is the user's: `rules apply` never changes it.
  /// A new date outside `CivilDate.supportedRange` is refused (its key would not hold its day).
  @discardableResult
  public func editExpense(id: Int64, _ change: ExpenseEdit) throws -> Expense {
    if let date = change.date, !date.isSupported { throw CoreError.dateOutOfRange(date.description) }
    return try write { db in
      guard let old = try AppDatabase.storedRow(db, id: id) else { throw StoreError.expenseNotFound([id]) }
      var new = old.expense
      var source = old.source
      if let date = change.date { new.date = date }
      if let minor = change.amountMinor { new.amount.minor = minor }
      if let description = change.description { new.description = description }
      if let account = change.account {
        new.account = account.trimmingCharacters(in: .whitespaces).isEmpty ? nil : account
      }
      if let category = change.category {
        var names = try AppDatabase.categoryNames(db)
        new.category = names.canonical(category)
        source = new.category == nil ? .none : .hand
      }
      // A new date needs a new key (the key starts with the day); the row keeps its id.
      let key = new.date == old.expense.date ? old.key : try ImportSession.freeKey(db, on: new.date, seed: id)
      if key != old.key { try IdRuns.move(db, id: id, to: ExpenseKey(rawValue: key).day) }
      try db.execute(
        sql: """
          UPDATE expense SET key = ?, date = ?, amountMinor = ?, description = ?, category = ?, account = ?,
                             categorySource = ?
          WHERE key = ?
          """,
        arguments: [
          key, new.date.description, new.amount.minor, new.description, new.category, new.account, source.rawValue,
          old.key,
        ])
      var totals = MonthTotalDeltas()
      totals.remove(date: old.expense.date, amount: old.expense.amount, category: old.expense.category)
      try totals.add(date: new.date, amount: new.amount, category: new.category)
      try totals.apply(db)
      return new
    }
  }

  /// The recorded imports, oldest first.
  public func imports() throws(StoreError) -> [ImportRecord] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, file, importedAt, rows, firstId, lastId, firstDate, lastDate FROM importRecord ORDER BY id"
      ).map { row in
        ImportRecord(
          id: row["id"], file: row["file"], importedAt: row["importedAt"], rows: row["rows"],
          firstId: row["firstId"], lastId: row["lastId"], firstDate: try CivilDate.parseStored(row["firstDate"]),
          lastDate: try CivilDate.parseStored(row["lastDate"]))
      }
    }
  }

  /// Takes out exactly the rows import `id` added (those still there: rows deleted since are
  /// gone already, edited ones keep their id and go too) and forgets the import. Returns how
  /// many rows were removed.
  @discardableResult
  public func removeImport(id: Int64) throws -> Int {
    try write { db in
      guard
        let record = try Row.fetchOne(
          db, sql: "SELECT firstId, lastId FROM importRecord WHERE id = ?", arguments: [id])
      else { throw StoreError.importNotFound(id) }
      let range: [Int64] = [record["firstId"], record["lastId"]]
      var totals = MonthTotalDeltas()
      // Each run of the import's ids is one day: read that day's keys, keep the run's ids.
      let runs = try Row.fetchAll(
        db, sql: "SELECT firstId, lastId, day FROM idRun WHERE firstId BETWEEN ? AND ?",
        arguments: StatementArguments(range))
      let inRun = "FROM expense WHERE key BETWEEN ? AND ? AND id BETWEEN ? AND ?"
      let select = try db.makeStatement(sql: "SELECT date, amountMinor, currency, category " + inRun)
      let delete = try db.makeStatement(sql: "DELETE " + inRun)
      var removed = 0
      for run in runs {
        let keys = ExpenseKey.range(day: run["day"])
        let arguments: StatementArguments = [keys.lowerBound, keys.upperBound, run["firstId"], run["lastId"]]
        let rows = try Row.fetchCursor(select, arguments: arguments)
        while let row = try rows.next() {
          guard let currency = Currency(code: row["currency"]) else { continue }
          totals.remove(
            date: try CivilDate.parseStored(row["date"]), amount: Money(minor: row["amountMinor"], currency: currency),
            category: row["category"])
        }
        try delete.execute(arguments: arguments)
        removed += db.changesCount
      }
      try db.execute(sql: "DELETE FROM idRun WHERE firstId BETWEEN ? AND ?", arguments: StatementArguments(range))
      try totals.apply(db)
      try db.execute(sql: "DELETE FROM importRecord WHERE id = ?", arguments: [id])
      return removed
    }
  }

  /// Re-categorizes with the rules (first matching rule wins) the rows whose category came from
  /// a rule or that have none; categories from the file or typed by hand are never changed, and
  /// rows no rule matches keep theirs. With `dryRun`, counts what would change and writes
  /// nothing.
  public func applyRules(dryRun: Bool) throws -> RulesApplyResult {
    let matcher = RuleMatcher(rules: try rules())
    guard !matcher.isEmpty else { return RulesApplyResult(changed: 0, byCategory: [:]) }
    let plan = { (db: Database) throws -> (RulesApplyResult, [(key: Int64, category: String)], MonthTotalDeltas) in
      var result = RulesApplyResult(changed: 0, byCategory: [:])
      var updates: [(key: Int64, category: String)] = []
      var totals = MonthTotalDeltas()
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT key, date, amountMinor, currency, description, account, category FROM expense
          WHERE categorySource IN (?, ?)
          """,
        arguments: [CategorySource.none.rawValue, CategorySource.rule.rawValue])
      while let row = try rows.next() {
        let current: String? = row["category"]
        guard let rule = matcher.match(description: row["description"], account: row["account"]),
          rule.category != current, let currency = Currency(code: row["currency"])
        else { continue }
        updates.append((row["key"], rule.category))
        result.changed += 1
        result.byCategory[rule.category, default: 0] += 1
        let date = try CivilDate.parseStored(row["date"])
        let amount = Money(minor: row["amountMinor"], currency: currency)
        totals.remove(date: date, amount: amount, category: current)
        try totals.add(date: date, amount: amount, category: rule.category)
      }
      return (result, updates, totals)
    }
    if dryRun { return try read { db in try plan(db).0 } }
    return try write { db in
      let (result, updates, totals) = try plan(db)
      let update = try db.makeStatement(sql: "UPDATE expense SET category = ?, categorySource = ? WHERE key = ?")
      for (key, category) in updates {
        try update.execute(arguments: [category, CategorySource.rule.rawValue, key])
      }
      try totals.apply(db)
      return result
    }
  }

  /// Re-categorizes stored expenses with the rules; returns how many rows changed (see
  /// `applyRules(dryRun:)`).
  public func applyRules() throws -> Int { try applyRules(dryRun: false).changed }
}

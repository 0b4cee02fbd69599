import ExpenseCore
import ExpenseStore
import GRDB

/// A rollup table that is derived from the expense rows: what `check` recomputes and compares,
/// and what `check --repair` rebuilds.
///
/// Why a value per table: adding a rollup to the check is one line in `AppDatabase.rollups`,
/// and its expected contents come from the same SQL that rebuilds it (no second copy of the
/// aggregate to drift apart from the first).
struct Rollup: Sendable {
  /// The stored table.
  var table: String
  /// Its columns, in the order `aggregate` produces them; the first one is what a finding is
  /// reported by (a month).
  var columns: [String]
  /// A SELECT computing the table's contents from the rows.
  var aggregate: String
  /// What is compared, as expressions over `columns` (the first must be the plain first column):
  /// where the table stores one value in two ways (`daily` NULL or all zeros), both sides are
  /// brought to one.
  var compared: [String]? = nil
  /// Rebuilds the whole table from the rows, inside the caller's transaction.
  var rebuild: @Sendable (Database) throws -> Void

  static let monthTotal = Rollup(
    table: "monthTotal",
    columns: ["month", "currency", "category", "outflow", "inflow", "count", "inflowCount", "daily"],
    aggregate: AppDatabase.monthTotalAggregateSQL,
    // A month with no money out stores its days as NULL (all zero), the rebuild as zero bytes.
    compared: [
      "month", "currency", "category", "outflow", "inflow", "count", "inflowCount",
      "NULLIF(daily, zeroblob(length(daily)))",
    ],
    rebuild: AppDatabase.rebuildAllMonthTotals)
}

extension AppDatabase {
  /// Every rollup `check` compares with the rows (one line per table).
  static let rollups: [Rollup] = [.monthTotal]

  /// Looks the whole database over without changing it: SQLite's own page-level
  /// `integrity_check`, the foreign keys, stored values that a report could not read, and each
  /// rollup recomputed from the rows and compared with what is stored.
  ///
  /// Each check is one statement in its own read transaction, not one transaction around them
  /// all: after SQLITE_CORRUPT, SQLite may have ended the transaction, and the check must go on
  /// to report rather than fail at the commit.
  public func check() throws(StoreError) -> CheckReport {
    do {
      return try writer.inDatabase { db in try AppDatabase.check(db) }
    } catch {
      throw AppDatabase.map(error, path: path)
    }
  }

  /// Rebuilds every rollup that is out of step with the rows, in one transaction, and returns
  /// the report of a fresh check afterwards with the tables it rebuilt.
  ///
  /// Nothing is rebuilt when SQLite's page check fails (a damaged file is restored from a
  /// backup, not written to), when an amount is not an integer (the totals would carry it), or
  /// when a rollup cannot be computed at all (an overflowing sum: the rebuild fails and rolls back).
  public func repairRollups() throws -> (rebuilt: [String], report: CheckReport) {
    let rebuilt: [String] = try write { db in
      let before = try AppDatabase.check(db)
      guard before.integrity.isEmpty else { return [] }
      let badAmounts =
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense WHERE \(AppDatabase.amountCondition)") ?? 0
      guard badAmounts == 0, !before.problems.contains(where: { $0.kind == .overflow }) else { return [] }
      let stale = Set(before.problems.compactMap { $0.kind == .rollupOutOfStep ? $0.table : nil })
      var rebuilt: [String] = []
      for rollup in AppDatabase.rollups where stale.contains(rollup.table) {
        try rollup.rebuild(db)
        rebuilt.append(rollup.table)
      }
      return rebuilt
    }
    return (rebuilt, try check())
  }

  static func check(_ db: Database) throws -> CheckReport {
    var report = CheckReport()
    do {
      try check(db, into: &report)
    } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
      // A page so damaged that a check itself cannot read past it is a finding, not a failure.
      report.integrity.append("SQLite: \(error.message ?? "database disk image is malformed")")
    }
    return report
  }

  static func check(_ db: Database, into report: inout CheckReport) throws {
    // Row by row: on some damage SQLite reports a page, then fails the next step.
    var integrity: [String] = []
    do {
      let cursor = try String.fetchCursor(db, sql: "PRAGMA integrity_check")
      while let line = try cursor.next() { integrity.append(line) }
    } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
      integrity.append("SQLite: \(error.message ?? "database disk image is malformed")")
    }
    report.integrity = integrity == ["ok"] ? [] : integrity
    for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
      let table: String = row[0]
      let rowid: Int64? = row[1]
      let parent: String = row[2]
      report.problems.append(
        CheckProblem(
          kind: .foreignKey, table: table,
          message: "row \(rowid.map(String.init) ?? "?") of \(table) refers to a missing row of \(parent)"))
    }
    // Past a damaged page the other checks could read garbage or fail: report what SQLite found.
    guard report.integrity.isEmpty else { return }
    report.expenseCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense") ?? 0
    report.problems += try unreadableValues(db)
    for rollup in rollups { report.problems += try compare(rollup, db) }
    report.rollupsChecked = rollups.map(\.table)
  }

  /// Expense rows whose amount is not an integer: a rollup rebuilt over them would carry the
  /// damage into the totals, so `repairRollups` leaves the rollups alone while there are any.
  static let amountCondition = "typeof(amountMinor) <> 'integer'"

  /// Stored values a report or a list could not read: each finding names the rows (by id) and
  /// their months.
  static func unreadableValues(_ db: Database) throws -> [CheckProblem] {
    let dates = CivilDate.supportedRange
    // Day number of a date (days since 1970-01-01) as SQLite computes it, and as the key holds it.
    let keyDay = ExpenseKey.sqlDaysSinceEpoch
    let dateDay = "CAST(julianday(date) - 2440587.5 AS INTEGER)"
    let expenseChecks: [(String, String)] = [
      (amountCondition, "the amount is not a whole number of minor units"),
      (
        "typeof(date) <> 'text' OR date NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' OR date(date, '+0 days') IS NOT date",
        "the date is not a valid YYYY-MM-DD"
      ),
      ("typeof(description) <> 'text'", "the description is not text"),
      ("category IS NOT NULL AND typeof(category) <> 'text'", "the category is not text"),
      (
        "date(date, '+0 days') IS date AND typeof(key) = 'integer' AND \(dateDay) <> \(keyDay)",
        "the row's key is not on its date (it is listed under the wrong month)"
      ),
      (
        "date(date, '+0 days') IS date AND (date < '\(dates.lowerBound)' OR date > '\(dates.upperBound)')",
        "the date is outside the supported range \(dates.lowerBound) through \(dates.upperBound) (reports leave "
          + "the row out): give it its real date with 'expenses edit ID --date YYYY-MM-DD' or 'expenses delete ID'"
      ),
    ]
    var problems: [CheckProblem] = []
    for (condition, message) in expenseChecks {
      if let problem = try expenseRows(db, where: condition, message) { problems.append(problem) }
    }
    // Currencies: few distinct values, checked against the ISO 4217 table in Swift.
    for row in try Row.fetchAll(db, sql: "SELECT currency, COUNT(*) AS n FROM expense GROUP BY currency") {
      let code = row["currency"] as String?
      if let code, Currency(code: code)?.code == code { continue }
      let shown = code.map { "'\($0)'" } ?? "NULL"
      if let problem = try expenseRows(
        db, where: "currency IS ?", arguments: [code], "the currency \(shown) is not an ISO 4217 code")
      {
        problems.append(problem)
      }
    }
    let rollupTypes = try String.fetchAll(
      db,
      sql: """
        SELECT DISTINCT CAST(month AS TEXT) FROM monthTotal
        WHERE typeof(outflow) <> 'integer' OR typeof(inflow) <> 'integer' OR typeof(count) <> 'integer'
        ORDER BY 1
        """)
    if !rollupTypes.isEmpty {
      problems.append(
        CheckProblem(
          kind: .unreadable, table: "monthTotal", months: rollupTypes,
          message: "stored totals are not whole numbers"))
    }
    let budgets = try Row.fetchAll(db, sql: "SELECT id, currency, typeof(amountMinor) AS type FROM budget")
    let badBudgets = budgets.filter { row in
      let code = row["currency"] as String?
      return row["type"] as String != "integer" || code.flatMap { Currency(code: $0)?.code } != code
    }
    if !badBudgets.isEmpty {
      problems.append(
        CheckProblem(
          kind: .unreadable, table: "budget", rowIDs: badBudgets.map { $0["id"] },
          message: "the amount is not a whole number or the currency is not an ISO 4217 code"))
    }
    problems += try budgetMonths(db)
    return problems
  }

  /// Budget months an older version stored outside `Month.supportedRange` (`999-05`): reports
  /// leave them out; the message says how to remove them.
  static func budgetMonths(_ db: Database) throws -> [CheckProblem] {
    let months = Month.supportedRange
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT DISTINCT CAST(month AS TEXT) AS month FROM budget
        WHERE month <> '' AND (month NOT GLOB '\(monthPattern)' OR month < ? OR month > ?) ORDER BY 1
        """,
      arguments: [months.lowerBound.description, months.upperBound.description])
    guard !rows.isEmpty else { return [] }
    return [
      CheckProblem(
        kind: .unreadable, table: "budget", months: rows.map { $0["month"] },
        message:
          "the budget month is outside the supported range \(months.lowerBound) through \(months.upperBound) "
          + "(reports leave the budget out): remove it with 'expenses budget remove CATEGORY --month YYYY-MM'")
    ]
  }

  /// The expense rows matching `condition` as one finding (ids and months, the first 20 ids).
  static func expenseRows(
    _ db: Database, where condition: String, arguments: StatementArguments = [], _ message: String
  ) throws -> CheckProblem? {
    let count =
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense WHERE \(condition)", arguments: arguments) ?? 0
    guard count > 0 else { return nil }
    let ids = try Int64.fetchAll(
      db, sql: "SELECT id FROM expense WHERE \(condition) ORDER BY id LIMIT 20", arguments: arguments)
    let months = try String.fetchAll(
      db, sql: "SELECT DISTINCT substr(CAST(date AS TEXT), 1, 7) FROM expense WHERE \(condition) ORDER BY 1 LIMIT 20",
      arguments: arguments)
    return CheckProblem(
      kind: .unreadable, table: "expense", rowIDs: ids, rowCount: count, months: months, message: message)
  }

  /// The months in which `rollup` as stored differs from `rollup` recomputed from the rows.
  static func compare(_ rollup: Rollup, _ db: Database) throws -> [CheckProblem] {
    let columns = rollup.columns.joined(separator: ", ")
    let compared = (rollup.compared ?? rollup.columns).joined(separator: ", ")
    let scope = rollup.columns[0]
    let sql = """
      WITH expected(\(columns)) AS (\(rollup.aggregate)),
           stored AS (SELECT \(columns) FROM \(rollup.table))
      SELECT CAST(\(scope) AS TEXT) FROM (SELECT \(compared) FROM expected EXCEPT SELECT \(compared) FROM stored)
      UNION
      SELECT CAST(\(scope) AS TEXT) FROM (SELECT \(compared) FROM stored EXCEPT SELECT \(compared) FROM expected)
      ORDER BY 1
      """
    do {
      let months = try String.fetchAll(db, sql: sql)
      guard !months.isEmpty else { return [] }
      return [
        .rollupOutOfStep(table: rollup.table, months: months)
      ]
    } catch let error as DatabaseError where error.message?.contains("overflow") == true {
      return [
        CheckProblem(
          kind: .overflow, table: rollup.table, months: try overflowingMonths(db),
          message: "the rows' sums do not fit in 64 bits (integer overflow)")
      ]
    }
  }

  /// Months whose sums per (currency, category) leave the 64-bit range, found with SQLite's
  /// floating `total()` (which cannot overflow) only after the exact sum failed.
  static func overflowingMonths(_ db: Database) throws -> [String] {
    try String.fetchAll(
      db,
      sql: """
        SELECT DISTINCT month FROM (
          SELECT substr(date, 1, 7) AS month,
                 total(CASE WHEN amountMinor < 0 THEN -amountMinor ELSE 0 END) AS o,
                 total(CASE WHEN amountMinor > 0 THEN amountMinor ELSE 0 END) AS i
          FROM expense GROUP BY 1, currency, COALESCE(category, ''))
        WHERE o >= 9.2e18 OR i >= 9.2e18 ORDER BY 1
        """)
  }
}

import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// `rules apply`: re-categorizes stored rows, changing the rollup by exactly what moved.
extension AppDatabase {
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

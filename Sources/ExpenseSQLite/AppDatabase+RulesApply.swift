import ExpenseCore
import ExpenseStore
import Foundation
import GRDB

/// `rules apply`'s storage: re-categorizes stored rows, changing the rollup by exactly what moved.
extension AppDatabase {
  public func recategorize(
    from sources: [CategorySource], as source: CategorySource, dryRun: Bool, _ decide: (RecategorizeRow) -> String?
  ) throws {
    func plan(_ db: Database) throws -> ([(key: Int64, category: String)], MonthTotalDeltas) {
      var updates: [(key: Int64, category: String)] = []
      var totals = MonthTotalDeltas()
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT key, id, date, amountMinor, currency, description, account, category, categorySource FROM expense
          WHERE categorySource IN (\(sources.map { String($0.rawValue) }.joined(separator: ", ")))
          """)
      while let row = try rows.next() {
        let current: String? = row["category"]
        guard
          let category = decide(
            RecategorizeRow(
              description: row["description"], account: row["account"], category: current, id: row["id"],
              source: CategorySource(rawValue: (row["categorySource"] as Int?) ?? 0) ?? .none)),
          let currency = Currency(code: row["currency"])
        else { continue }
        updates.append((row["key"], category))
        let date = try CivilDate.parseStored(row["date"])
        let amount = Money(minor: row["amountMinor"], currency: currency)
        totals.remove(date: date, amount: amount, category: current)
        try totals.add(date: date, amount: amount, category: category)
      }
      return (updates, totals)
    }
    if dryRun { return _ = try read { db in try plan(db) } }
    try write { db in
      let (updates, totals) = try plan(db)
      let update = try db.makeStatement(sql: "UPDATE expense SET category = ?, categorySource = ? WHERE key = ?")
      for (key, category) in updates {
        try update.execute(arguments: [category, source.rawValue, key])
      }
      try totals.apply(db)
    }
  }
}

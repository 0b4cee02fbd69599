import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// v3-kinds: a category kind may be `transfer`; the monthly rollup also counts money-in rows
  /// (`inflowCount`, for "unsorted money in · N rows") and keeps money out per day (`daily`,
  /// see `DailyOutflow`) for shaped pace. Both are filled from the stored rows.
  static func migrateKinds(_ db: Database) throws {
    try db.create(table: "categoryKind_v3") { t in
      t.primaryKey("name", .text)
      t.column("kind", .text).notNull().check { ["expense", "income", "transfer"].contains($0) }
    }
    try db.execute(sql: "INSERT INTO categoryKind_v3 (name, kind) SELECT name, kind FROM categoryKind")
    try db.drop(table: "categoryKind")
    try db.rename(table: "categoryKind_v3", to: "categoryKind")
    try db.alter(table: "monthTotal") { t in
      t.add(column: "inflowCount", .integer).notNull().defaults(to: 0)
      t.add(column: "daily", .blob)
    }
    try rebuildAllMonthTotals(db)
  }
}

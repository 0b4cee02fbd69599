import ExpenseStore
import GRDB

extension AppDatabase {
  /// The partial index of the rows that keep a `date` of their own (`expenseRowDated`).
  static let datedIndex = "expenseRowDated"

  /// Schema "v8-dated": an index of the expense rows whose `date` is stored, not derived from
  /// their key.
  ///
  /// Every row this program writes leaves `date` NULL (its day is the key's), so the index is
  /// empty in every ordinary file and costs an import one test of a NULL per row. Only rows of
  /// older versions whose key wrapped to another day, or rows edited by hand, are in it.
  ///
  /// Why: a read in date order reads the rows in key order and puts each day's rows in id order
  /// (`DateRunBuffer`), which is right only when the dates come in key order. Without the index
  /// that had to be checked row by row in a pass of its own (a busy month's JSON report spent
  /// 8% of its instructions there); with it, "no row of these keys has a date of its own" is
  /// one lookup (`AppDatabase.Snapshot.datesComeFromKeys`).
  static func migrateDated(_ db: Database) throws {
    try db.execute(sql: "CREATE INDEX \(datedIndex) ON expenseRow (key) WHERE date IS NOT NULL")
  }
}

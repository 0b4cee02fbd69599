import ExpenseCore
import ExpenseStore
import GRDB

/// The parts of split transactions (`splitPart`, schema "v5-splits"): which expenses belong
/// together, and the rule that keeps them so. A part is deleted only with all the others, and
/// its amount and date never change alone: together the parts are one bank transaction, and a
/// lone change would make the books disagree with the statement. A part's category,
/// description and account are its own and change freely.
extension AppDatabase {
  /// The ids of the split transaction expense `id` is a part of, in order; `nil` when it is an
  /// ordinary expense.
  static func splitParts(_ db: Database, of id: Int64) throws -> [Int64]? {
    let parts = try Int64.fetchAll(
      db,
      sql: """
        SELECT p.id FROM splitPart p JOIN splitPart me ON me.setId = p.setId
        WHERE me.id = ? ORDER BY p.id
        """,
      arguments: [id])
    return parts.isEmpty ? nil : parts
  }

  /// The ids to delete for `ids`: with `wholeSplits`, every part of each split transaction
  /// named is added; without, a part named without all of its set is refused.
  static func splitClosure(_ db: Database, of ids: [Int64], wholeSplits: Bool) throws -> [Int64] {
    try SplitSets.deletion(of: ids, wholeSplits: wholeSplits) { try splitParts(db, of: $0) }
  }

  /// Forgets deleted expenses' split membership.
  static func forgetSplitParts(_ db: Database, ids: [Int64]) throws {
    let delete = try db.makeStatement(sql: "DELETE FROM splitPart WHERE id = ?")
    for id in ids { try delete.execute(arguments: [id]) }
  }
}

import ExpenseStore
import Foundation

extension ExpenseService {
  /// What `check` found and, with repair, what it rebuilt.
  public struct CheckOutcome: Sendable, Equatable {
    /// The state after any repair.
    public var report: CheckReport
    /// Tables rebuilt from the expenses.
    public var rebuilt: [String]
    /// A repair was asked and something needed it, but the rows must be corrected first.
    public var notRepairable: Bool
  }

  /// Checks the stored data; with `repair`, rebuilds what is out of step and can be rebuilt.
  public func check(repair: Bool) throws -> CheckOutcome {
    let report = try store.check()
    guard repair && !report.isHealthy else { return CheckOutcome(report: report, rebuilt: [], notRepairable: false) }
    let outcome = try store.repairRollups()
    return CheckOutcome(
      report: outcome.report, rebuilt: outcome.rebuilt,
      notRepairable: outcome.rebuilt.isEmpty && report.problems.contains(where: \.isRepairable))
  }

  /// Writes a consistent copy of the store to `path` (an `OutputFile`: never the database, an
  /// existing file without `force`, or anything that is not a regular file), renamed into place
  /// only when whole. Returns how many expenses the copy holds.
  @discardableResult
  public func backup(to path: String, force: Bool) throws -> Int {
    let output = try outputFile(path: path, force: force)
    do {
      try store.backup(into: output.temporaryPath)
    } catch {
      output.discard()
      throw error
    }
    try output.commit()
    return try store.expenseCount(month: nil)
  }
}

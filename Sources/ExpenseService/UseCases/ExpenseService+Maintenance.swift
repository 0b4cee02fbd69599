import ExpenseCore
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
    /// Every carry under rollover into this month, recomputed from the rows themselves.
    public var carries: [CarryCheck] = []
  }

  /// One category's carry into this month, as the report computes it (from the monthly
  /// totals) and as the rows alone give it: equal whenever the totals are in step.
  public struct CarryCheck: Sendable, Equatable, Encodable {
    public var category: String
    public var currency: String
    public var month: String
    public var carriedInMinor: Int64
    public var fromRowsMinor: Int64
    public var matches: Bool { carriedInMinor == fromRowsMinor }
  }

  /// Checks the stored data; with `repair`, rebuilds what is out of step and can be rebuilt.
  public func check(repair: Bool) throws -> CheckOutcome {
    let report = try store.check()
    var outcome = CheckOutcome(report: report, rebuilt: [], notRepairable: false)
    if repair && !report.isHealthy {
      let repaired = try store.repairRollups()
      outcome = CheckOutcome(
        report: repaired.report, rebuilt: repaired.rebuilt,
        notRepairable: repaired.rebuilt.isEmpty && report.problems.contains(where: \.isRepairable))
    }
    if outcome.report.integrity.isEmpty { outcome.carries = try checkCarries() }
    return outcome
  }

  /// Each rollover's carry into today's month two ways: as the report computes it (the
  /// monthly totals through `CarryCalculator`) and from the rows alone (each month's spending
  /// summed from the expenses), so `check` proves every carry a report shows.
  func checkCarries() throws -> [CarryCheck] {
    try store.consistently {
      let rollovers = try Rollovers.load(store)
      guard let since = rollovers.map(\.since).min() else { return [] }
      let month = clock.today().calendarMonth
      let report = try ReportLoader(store: store).report(month: month, today: clock.today(), including: [])
      var byRows: [String: [Month: Int128]] = [:]
      let names = Set(rollovers.map { "\($0.currency.code):\($0.category)" })
      for expense in try store.expenses(from: since.firstDay, through: month.firstDay.adding(days: -1)) {
        guard let category = expense.category, names.contains("\(expense.amount.currency.code):\(category)") else {
          continue
        }
        byRows["\(expense.amount.currency.code):\(category)", default: [:]][expense.date.calendarMonth, default: 0] -=
          Int128(expense.amount.minor)
      }
      let budgets = try store.budgets()
      let moves = try BudgetMoves.load(store)
      return rollovers.compactMap { rollover -> CarryCheck? in
        let group = report.groups.first { $0.currency == rollover.currency }
        guard let row = group?.categories.first(where: { $0.category == rollover.category }),
          let carried = row.carriedInMinor
        else { return nil }
        let input = BenchmarkCalculator.Input(totals: [], budgets: budgets, moves: moves)
        let key = "\(rollover.currency.code):\(rollover.category)"
        let fromRows = CarryCalculator.carry(
          into: month, rollover: rollover,
          budget: {
            BenchmarkCalculator.budget(
              of: rollover.category, in: rollover.currency, month: $0, input: input)
          },
          spent: { Int64(clamping: byRows[key]?[$0] ?? 0) })
        return CarryCheck(
          category: rollover.category, currency: rollover.currency.code, month: month.description,
          carriedInMinor: carried, fromRowsMinor: fromRows.carriedInMinor)
      }
    }
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

import ExpenseCore
import ExpenseStore
import Foundation

/// Goals as the service keeps them: records of kind `goal` (`StoredRecord`), the body the goal
/// without its id.
enum Goals {
  static let records = RecordKind<Body>(name: "goal")

  struct Body: Codable {
    var name: String
    var category: String
    var currency: Currency
    var targetMinor: Int64
    var by: Month
    var since: Month
  }

  static func load(_ store: any LedgerStore) throws -> [Goal] {
    try records.load(store).map { id, body in
      Goal(
        id: id, name: body.name, category: body.category, currency: body.currency, targetMinor: body.targetMinor,
        by: body.by, since: body.since)
    }
  }
}

extension ExpenseService {
  /// Adds a goal: `amount` in `currency` (default the store's) set aside in `category` by the
  /// end of `by`, measured from this month. The category takes its known spelling.
  public func addGoal(name: String, amount: String, by: Month, category: String, currency code: String?) throws
    -> GoalProgress
  {
    try store.atomically {
      let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
      let money = try Money.parse(amount, currency: currency)
      return try addGoal(name: name, targetMinor: money.minor, by: by, category: category, currency: currency)
    }
  }

  /// `addGoal` with the amount in minor units (`POST /v1/goals`).
  public func addGoal(name: String, targetMinor: Int64, by: Month, category: String, currency: Currency?) throws
    -> GoalProgress
  {
    try recording("goal add") {
      let title = name.trimmingCharacters(in: .whitespaces)
      guard !title.isEmpty else { throw ServiceError.goalValue("a goal needs a name") }
      guard targetMinor > 0 else { throw ServiceError.goalValue("a goal's amount must be more than 0") }
      let month = clock.today().calendarMonth
      guard by >= month else {
        throw ServiceError.goalValue("the goal's month \(by) has passed; give --by a month from \(month) on")
      }
      var names = try store.categoryNames()
      guard let stored = names.canonical(category) else { throw ServiceError.goalValue("a goal needs a category") }
      let body = Goals.Body(
        name: title, category: stored, currency: try currency ?? store.defaultCurrency(), targetMinor: targetMinor,
        by: by, since: month)
      let record = try store.addRecord(kind: Goals.records.name, body: try Goals.records.encoded(body))
      let goal = Goal(
        id: record.id, name: title, category: stored, currency: body.currency, targetMinor: targetMinor, by: by,
        since: month)
      let progress =
        try progress(in: month).first { $0.goal.id == goal.id } ?? GoalProgress(goal: goal, month: month, saved: 0)
      return (
        progress, "goal add #\(record.id) \(title)", .effect(.records(kind: record.kind, added: [record], removed: []))
      )
    }
  }

  /// Every goal and where it stands this month.
  public func goals() throws -> [GoalProgress] {
    try store.consistently { try progress(in: clock.today().calendarMonth) }
  }

  /// Where every goal stands in `month`: as that month's report computes it (`ReportLoader`).
  func progress(in month: Month) throws -> [GoalProgress] {
    try ReportLoader(store: store).report(month: month, today: clock.today(), including: []).goals
  }

  /// Removes goal `id` (`ServiceError.goalNotFound` when there is none) and returns it.
  public func removeGoal(id: Int64) throws -> Goal {
    try recording("goal remove") {
      guard let goal = try Goals.load(store).first(where: { $0.id == id }),
        let record = try store.record(kind: Goals.records.name, id: id),
        try store.removeRecord(kind: Goals.records.name, id: id)
      else { throw ServiceError.goalNotFound(id) }
      return (
        goal, "goal remove #\(id) \(goal.name)", .effect(.records(kind: record.kind, added: [], removed: [record]))
      )
    }
  }
}

extension Goals {
  /// Where `goals` stand in `month`: what each has set aside is its category's available
  /// amount in `report` under rollover, else what was spent in the category (`totals`, which
  /// must reach back to the goal's first month) from the goal's first month through `month`.
  static func progress(
    _ goals: [Goal], in month: Month, report: BudgetReport, totals: [CategoryMonthTotal],
    kinds: [String: CategoryKind]
  ) -> [GoalProgress] {
    goals.map { goal in
      let row = report.groups.first { $0.currency == goal.currency }?.categories.first {
        CategoryName.key($0.category) == CategoryName.key(goal.category)
      }
      let saved: Int64
      if let available = row?.availableMinor {
        saved = available
      } else {
        let spent = totals.filter {
          $0.currency == goal.currency && $0.month >= goal.since && $0.month <= month
            && $0.category.map { CategoryName.key($0) == CategoryName.key(goal.category) } == true
            && BenchmarkCalculator.kind(of: $0.category, in: kinds) != .income
        }.reduce(Int128(0)) { $0 + Int128($1.outflowMinor) - Int128($1.inflowMinor) }
        saved = Int64(clamping: spent)
      }
      return GoalProgress(goal: goal, month: month, saved: saved)
    }
  }
}

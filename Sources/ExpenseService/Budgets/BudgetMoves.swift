import ExpenseCore
import ExpenseStore
import Foundation

/// Budget moves as the service keeps them: records of kind `budget-move` (`StoredRecord`), the
/// body the move without its id (the record's id is the move's).
enum BudgetMoves {
  static let records = RecordKind<Body>(name: "budget-move")

  /// A move's body: everything but the id.
  struct Body: Codable {
    var month: Month
    var currency: Currency
    var amountMinor: Int64
    var from: String
    var to: String
    var madeAt: String
  }

  static func load(_ store: any LedgerStore) throws -> [BudgetMove] {
    try records.load(store).map { id, body in
      BudgetMove(
        id: id, month: body.month, currency: body.currency, amountMinor: body.amountMinor, from: body.from,
        to: body.to, madeAt: body.madeAt)
    }
  }

  /// `budgets` with each move folded in as the month's budget of the two categories (a month
  /// override of the budget in force, `BenchmarkCalculator.budget`), for the journal exports,
  /// whose budgets have no notion of a move: hledger, ledger and Fava then read the month's
  /// budgets as the report does. A quarterly or yearly category's moves are folded into its
  /// period instead: an override dated on the period's first month holds the period's amount
  /// with every move of the period (the exports write it for the whole period).
  static func applied(_ moves: [BudgetMove], to budgets: [Budget], periods: [CategoryPeriod] = []) -> [Budget] {
    let input = BenchmarkCalculator.Input(totals: [], budgets: budgets, moves: moves, periods: periods)
    let lengths = Dictionary(
      periods.map { ("\($0.currency.code):\($0.category)", $0.period) }, uniquingKeysWith: { first, _ in first })
    var result = budgets
    let months = Set(moves.map { MoveMonth(month: $0.month, currency: $0.currency) })
    for key in months.sorted(by: { ($0.month, $0.currency.code) < ($1.month, $1.currency.code) }) {
      for (category, net) in BudgetMove.net(moves, month: key.month, currency: key.currency) where net != 0 {
        let period = lengths["\(key.currency.code):\(category)"] ?? .month
        let range = period.months(containing: key.month)
        let inForce =
          BenchmarkCalculator.budget(of: category, in: key.currency, month: range.upperBound, input: input) ?? 0
        result.removeAll {
          $0.category == category && $0.amount.currency == key.currency && $0.month == range.lowerBound
        }
        result.append(
          Budget(
            category: category, amount: Money(minor: max(0, inForce), currency: key.currency),
            month: range.lowerBound))
      }
    }
    return result
  }

  struct MoveMonth: Hashable {
    var month: Month
    var currency: Currency
  }

}

extension ExpenseService {
  /// Moves `amount` (more than zero) of budget from one category to another in `month` (default
  /// this month), in `currency` (default the store's): a dated record the report counts on top
  /// of the budgets (`BudgetMove`). Both names take their known spelling.
  public func moveBudget(amount: String, from: String, to: String, month: Month?, currency code: String?) throws
    -> BudgetMove
  {
    try store.atomically {
      let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
      let money = try Money.parse(amount, currency: currency)
      return try moveBudget(amountMinor: money.minor, from: from, to: to, month: month, currency: currency)
    }
  }

  /// `moveBudget` with the amount in minor units (`POST /v1/budgets/moves`).
  public func moveBudget(amountMinor: Int64, from: String, to: String, month: Month?, currency: Currency?) throws
    -> BudgetMove
  {
    try recording("budget move") {
      guard amountMinor > 0 else { throw ServiceError.moveAmount(amountMinor) }
      var names = try store.categoryNames()
      guard let source = names.canonical(from), let target = names.canonical(to) else {
        throw ServiceError.moveBetweenSame(from)
      }
      guard CategoryName.key(source) != CategoryName.key(target) else { throw ServiceError.moveBetweenSame(source) }
      let month = month ?? clock.today().calendarMonth
      let currency = try currency ?? store.defaultCurrency()
      // What `source` has to give that month: its budget in force (earlier moves counted) and,
      // under rollover, what carried in. A move never takes a budget below zero.
      let report = try ReportLoader(store: store).report(month: month, today: clock.today(), including: [])
      let row = report.groups.first { $0.currency == currency }?.categories.first {
        CategoryName.key($0.category) == CategoryName.key(source)
      }
      let movable = max(0, Int128(row?.budgetMinor ?? 0) + Int128(row?.carriedInMinor ?? 0))
      guard Int128(amountMinor) <= movable else {
        throw ServiceError.moveMoreThanBudget(
          category: source, month: month, available: Money(minor: Int64(clamping: movable), currency: currency))
      }
      let body = BudgetMoves.Body(
        month: month, currency: currency,
        amountMinor: amountMinor, from: source, to: target, madeAt: ImportRecord.timestamp(clock.now()))
      let record = try store.addRecord(kind: BudgetMoves.records.name, body: try BudgetMoves.records.encoded(body))
      let move = BudgetMove(
        id: record.id, month: body.month, currency: body.currency, amountMinor: amountMinor, from: source,
        to: target, madeAt: body.madeAt)
      return (
        move, "budget move #\(record.id): \(History.moveWords(move))",
        .effect(.records(kind: record.kind, added: [record], removed: []))
      )
    }
  }

  /// The budget moves, of `month` only when given, oldest first.
  public func budgetMoves(month: Month? = nil) throws -> [BudgetMove] {
    try BudgetMoves.load(store).filter { month == nil || $0.month == month }
  }

  /// Removes move `id` and returns it (`ServiceError.moveNotFound` when there is none): the
  /// budgets are as if it was never made.
  public func removeBudgetMove(id: Int64) throws -> BudgetMove {
    try recording("budget moves remove") {
      guard let move = try BudgetMoves.load(store).first(where: { $0.id == id }),
        let record = try store.record(kind: BudgetMoves.records.name, id: id),
        try store.removeRecord(kind: BudgetMoves.records.name, id: id)
      else { throw ServiceError.moveNotFound(id) }
      let summary = "budget moves remove #\(id): \(History.moveWords(move))"
      return (move, summary, .effect(.records(kind: record.kind, added: [], removed: [record])))
    }
  }
}

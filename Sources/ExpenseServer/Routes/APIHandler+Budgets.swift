import ExpenseCore
import ExpenseService
import ExpenseStore
import OpenAPIRuntime

extension APIHandler {
  func listBudgets(_ input: Operations.ListBudgets.Input) async throws -> Operations.ListBudgets.Output {
    let budgets = try await backend.fromReplica { try $0.budgetsWithTerms() }
    return .ok(.init(body: .json(.init(budgets: budgets.map(Self.budget)))))
  }

  func getBudgets(_ input: Operations.GetBudgets.Input) async throws -> Operations.GetBudgets.Output {
    let category = input.path.category
    let budgets = try await backend.fromReplica { service in
      let named = try service.budgets(of: category)
      return try service.budgetsWithTerms().filter { named.contains($0.budget) }
    }
    return .ok(.init(body: .json(.init(budgets: budgets.map(Self.budget)))))
  }

  func putBudget(_ input: Operations.PutBudget.Input) async throws -> Operations.PutBudget.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    let category = try Self.name(input.path.category, field: "category")
    guard body.amountMinor >= 0 else {
      throw APIProblem.unprocessable(
        "'amountMinor' must be 0 or more (a budget is never negative)", field: "amountMinor")
    }
    let currency = try body.currency.map { try Self.currency($0, field: "currency") }
    let month = try body.month.map { try Self.month($0, field: "month") }
    let amount = body.amountMinor
    let rollover = body.rollover.flatMap { RolloverMode(rawValue: $0.rawValue) }
    let period = body.period.flatMap { BudgetPeriod(rawValue: $0.rawValue) }
    let stored = try await backend.write { service in
      let stored = try service.setBudget(
        category: category, amountMinor: amount, month: month, currency: currency, rollover: rollover,
        period: period)
      return BudgetResource(stored, rollover: try service.rollover(of: stored), period: try service.period(of: stored))
    }
    return .ok(.init(body: .json(Self.budget(stored))))
  }

  func deleteBudget(_ input: Operations.DeleteBudget.Input) async throws -> Operations.DeleteBudget.Output {
    let month = try input.query.month.map { try Self.month($0, field: "month") }
    let currency = try input.query.currency.map { try Self.currency($0, field: "currency") }
    let category = input.path.category
    try await backend.write { try $0.removeBudget(category: category, month: month, currency: currency) }
    return .noContent(.init())
  }

  static func budget(_ listed: BudgetResource) -> Components.Schemas.Budget {
    let budget = listed.budget
    return .init(
      category: budget.category, currency: budget.amount.currency.code, month: budget.month?.description,
      amountMinor: budget.amount.minor,
      rollover: Components.Schemas.RolloverMode(rawValue: listed.rollover.rawValue) ?? .off,
      period: Components.Schemas.BudgetPeriod(rawValue: listed.period.rawValue) ?? .month)
  }
}

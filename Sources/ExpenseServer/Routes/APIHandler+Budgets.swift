import ExpenseCore
import ExpenseStore
import OpenAPIRuntime

extension APIHandler {
  func listBudgets(_ input: Operations.ListBudgets.Input) async throws -> Operations.ListBudgets.Output {
    let budgets = try await backend.fromReplica { try $0.budgetsWithRollover() }
    return .ok(.init(body: .json(.init(budgets: budgets.map { Self.budget($0.0, rollover: $0.1) }))))
  }

  func getBudgets(_ input: Operations.GetBudgets.Input) async throws -> Operations.GetBudgets.Output {
    let category = input.path.category
    let budgets = try await backend.fromReplica { service in
      let named = try service.budgets(of: category)
      return try service.budgetsWithRollover().filter { named.contains($0.0) }
    }
    return .ok(.init(body: .json(.init(budgets: budgets.map { Self.budget($0.0, rollover: $0.1) }))))
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
    let (stored, mode) = try await backend.write { service in
      let stored = try service.setBudget(
        category: category, amountMinor: amount, month: month, currency: currency, rollover: rollover)
      return (stored, try service.rollover(of: stored))
    }
    return .ok(.init(body: .json(Self.budget(stored, rollover: mode))))
  }

  func deleteBudget(_ input: Operations.DeleteBudget.Input) async throws -> Operations.DeleteBudget.Output {
    let month = try input.query.month.map { try Self.month($0, field: "month") }
    let currency = try input.query.currency.map { try Self.currency($0, field: "currency") }
    let category = input.path.category
    try await backend.write { try $0.removeBudget(category: category, month: month, currency: currency) }
    return .noContent(.init())
  }

  static func budget(_ budget: Budget, rollover: RolloverMode) -> Components.Schemas.Budget {
    .init(
      category: budget.category, currency: budget.amount.currency.code, month: budget.month?.description,
      amountMinor: budget.amount.minor, rollover: Components.Schemas.RolloverMode(rawValue: rollover.rawValue) ?? .off)
  }
}

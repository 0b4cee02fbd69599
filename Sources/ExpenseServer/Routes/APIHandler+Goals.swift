import ExpenseCore
import ExpenseStore
import OpenAPIRuntime

/// Goals (`expenses goal add|list|remove`).
extension APIHandler {
  func listGoals(_ input: Operations.ListGoals.Input) async throws -> Operations.ListGoals.Output {
    let goals = try await backend.fromReplica { try $0.goals() }
    return .ok(.init(body: .json(.init(goals: goals.map(Self.goal)))))
  }

  func createGoal(_ input: Operations.CreateGoal.Input) async throws -> Operations.CreateGoal.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    guard body.targetMinor > 0 else {
      throw APIProblem.unprocessable("'targetMinor' must be more than 0", field: "targetMinor")
    }
    let name = try Self.name(body.name, field: "name")
    let category = try Self.name(body.category, field: "category")
    let by = try Self.month(body.by, field: "by")
    let currency = try body.currency.map { try Self.currency($0, field: "currency") }
    let target = body.targetMinor
    let goal = try await backend.write {
      try $0.addGoal(name: name, targetMinor: target, by: by, category: category, currency: currency)
    }
    return .created(.init(body: .json(Self.goal(goal))))
  }

  func deleteGoal(_ input: Operations.DeleteGoal.Input) async throws -> Operations.DeleteGoal.Output {
    let id = try Self.checkID(input.path.id)
    _ = try await backend.write { try $0.removeGoal(id: id) }
    return .noContent(.init())
  }

  static func goal(_ goal: GoalProgress) -> Components.Schemas.Goal {
    .init(
      id: goal.goal.id, name: goal.goal.name, category: goal.goal.category, currency: goal.goal.currency.code,
      targetMinor: goal.goal.targetMinor, by: goal.goal.by.description, since: goal.goal.since.description,
      month: goal.month.description, savedMinor: goal.savedMinor, remainingMinor: goal.remainingMinor,
      monthsLeft: goal.monthsLeft, monthlyNeedMinor: goal.monthlyNeedMinor,
      status: Components.Schemas.Goal.StatusPayload(rawValue: goal.status.rawValue) ?? .onTrack,
      monthsBehind: goal.monthsBehind)
  }
}

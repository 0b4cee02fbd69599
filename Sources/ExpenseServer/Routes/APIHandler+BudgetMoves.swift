import ExpenseCore
import ExpenseStore
import OpenAPIRuntime

/// Budget moves (`expenses budget move` and `budget moves remove`).
extension APIHandler {
  func createBudgetMove(_ input: Operations.CreateBudgetMove.Input) async throws
    -> Operations.CreateBudgetMove.Output
  {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    guard body.amountMinor > 0 else {
      throw APIProblem.unprocessable("'amountMinor' must be more than 0", field: "amountMinor")
    }
    let from = try Self.name(body.from, field: "from")
    let to = try Self.name(body.to, field: "to")
    let currency = try body.currency.map { try Self.currency($0, field: "currency") }
    let month = try body.month.map { try Self.month($0, field: "month") }
    let amount = body.amountMinor
    let move = try await backend.write {
      try $0.moveBudget(amountMinor: amount, from: from, to: to, month: month, currency: currency)
    }
    return .created(.init(body: .json(Self.move(move))))
  }

  func deleteBudgetMove(_ input: Operations.DeleteBudgetMove.Input) async throws
    -> Operations.DeleteBudgetMove.Output
  {
    let id = try Self.checkID(input.path.id)
    _ = try await backend.write { try $0.removeBudgetMove(id: id) }
    return .noContent(.init())
  }

  static func move(_ move: BudgetMove) -> Components.Schemas.BudgetMove {
    .init(
      id: move.id, month: move.month.description, currency: move.currency.code, amountMinor: move.amountMinor,
      from: move.from, to: move.to, madeAt: move.madeAt)
  }
}

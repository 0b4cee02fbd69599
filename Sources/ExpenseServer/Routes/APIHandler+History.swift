import ExpenseService
import OpenAPIRuntime

/// The history of changes and their undo (`expenses history`, `expenses undo N`).
extension APIHandler {
  func listHistory(_ input: Operations.ListHistory.Input) async throws -> Operations.ListHistory.Output {
    if let limit = input.query.limit, !(1...1000).contains(limit) {
      throw APIProblem.badRequest("'limit' must be 1 to 1000", field: "limit")
    }
    let limit = input.query.limit
    let changes = try await backend.read { try $0.history(limit: limit) }
    return .ok(.init(body: .json(.init(changes: changes.map(Self.change)))))
  }

  func undoChange(_ input: Operations.UndoChange.Input) async throws -> Operations.UndoChange.Output {
    let id = try Self.checkID(input.path.id)
    let result = try await backend.write { try $0.undo(id) }
    return .ok(
      .init(
        body: .json(
          .init(undone: Self.change(result.undone), change: Self.change(result.change), changedBack: result.changedBack)
        )))
  }

  static func change(_ change: HistoryChange) -> Components.Schemas.HistoryChange {
    .init(
      id: change.id, action: change.action, summary: change.summary, by: change.by, at: change.at, rows: change.rows,
      undoes: change.undoes, undoneBy: change.undoneBy, undoable: change.undoable)
  }
}

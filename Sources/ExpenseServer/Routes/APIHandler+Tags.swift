import ExpenseCore
import ExpenseService
import OpenAPIRuntime

/// Tags (`expenses tag add|remove|list|budget|delete`).
extension APIHandler {
  func listTags(_ input: Operations.ListTags.Input) async throws -> Operations.ListTags.Output {
    let tags = try await backend.fromReplica { try $0.tags() }
    return .ok(.init(body: .json(.init(tags: tags.map(Self.tag)))))
  }

  func tagExpenses(_ input: Operations.TagExpenses.Input) async throws -> Operations.TagExpenses.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    let name = input.path.tag
    let ids = try body.ids.map { try Self.checkID($0, field: "ids") }
    guard !ids.isEmpty else { throw APIProblem.badRequest("'ids' names at least one row", field: "ids") }
    let tag = try await backend.write { try $0.addTag(name, to: ids) }
    return .ok(.init(body: .json(Self.tag(tag))))
  }

  func untagExpense(_ input: Operations.UntagExpense.Input) async throws -> Operations.UntagExpense.Output {
    let name = input.path.tag
    let id = try Self.checkID(input.path.id)
    let tag = try await backend.write { try $0.removeTag(name, from: [id]) }
    return .ok(.init(body: .json(Self.tag(tag))))
  }

  func setTagBudget(_ input: Operations.SetTagBudget.Input) async throws -> Operations.SetTagBudget.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    let name = input.path.tag
    let from = try Self.date(body.from, field: "from")
    let to = try Self.date(body.to, field: "to")
    let currency = try body.currency.map { try Self.currency($0, field: "currency") }
    let amount = body.amountMinor
    let tag = try await backend.write {
      try $0.setTagBudget(name, amountMinor: amount, currency: currency, from: from, to: to)
    }
    return .ok(.init(body: .json(Self.tag(tag))))
  }

  func deleteTag(_ input: Operations.DeleteTag.Input) async throws -> Operations.DeleteTag.Output {
    let name = input.path.tag
    _ = try await backend.write { try $0.deleteTag(name) }
    return .noContent(.init())
  }

  static func tag(_ tag: TagSummary) -> Components.Schemas.Tag {
    .init(
      name: tag.name, count: tag.count,
      totals: tag.totals.map { .init(currency: $0.currency.code, spentMinor: $0.spentMinor, count: $0.count) },
      rules: tag.rules,
      budget: tag.budget.map {
        .init(amountMinor: $0.amountMinor, currency: $0.currency.code, from: $0.from.description, to: $0.to.description)
      }, budgetSpentMinor: tag.budgetSpentMinor, percentUsed: tag.percentUsed)
  }
}

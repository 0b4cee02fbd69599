import ExpenseStore
import OpenAPIRuntime

extension APIHandler {
  func listRules(_ input: Operations.ListRules.Input) async throws -> Operations.ListRules.Output {
    .ok(.init(body: .json(.init(rules: try await backend.fromReplica { try $0.rules() }.map(Self.rule)))))
  }

  func getRule(_ input: Operations.GetRule.Input) async throws -> Operations.GetRule.Output {
    let id = try Self.checkID(input.path.id)
    let rule = try await backend.fromReplica { try $0.rule(id: id) }
    return .ok(.init(body: .json(Self.rule(rule))))
  }

  func putRule(_ input: Operations.PutRule.Input) async throws -> Operations.PutRule.Output {
    let id = try Self.checkID(input.path.id)
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    guard !body.pattern.isEmpty else { throw APIProblem.badRequest("'pattern' must not be empty", field: "pattern") }
    let category = try Self.name(body.category, field: "category")
    let field = CategoryRule.Field(rawValue: body.field?.rawValue ?? "description") ?? .description
    let pattern = body.pattern
    let rule = try await backend.write { try $0.putRule(id: id, pattern: pattern, category: category, field: field) }
    return .ok(.init(body: .json(Self.rule(rule))))
  }

  func deleteRule(_ input: Operations.DeleteRule.Input) async throws -> Operations.DeleteRule.Output {
    let id = try Self.checkID(input.path.id)
    try await backend.write { try $0.removeRule(id: id) }
    return .noContent(.init())
  }

  static func rule(_ rule: CategoryRule) -> Components.Schemas.Rule {
    .init(
      id: rule.id, pattern: rule.pattern, category: rule.category,
      field: .init(rawValue: rule.field.rawValue) ?? .description)
  }
}

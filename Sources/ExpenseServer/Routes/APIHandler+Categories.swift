import ExpenseCore
import ExpenseStore
import OpenAPIRuntime

extension APIHandler {
  func listCategories(_ input: Operations.ListCategories.Input) async throws -> Operations.ListCategories.Output {
    .ok(.init(body: .json(.init(categories: try await backend.fromReplica { try $0.categories() }.map(Self.category)))))
  }

  func getCategory(_ input: Operations.GetCategory.Input) async throws -> Operations.GetCategory.Output {
    let name = input.path.category
    guard let found = try await backend.fromReplica({ try $0.category(named: name) }) else {
      throw APIProblem.notFound("no category '\(input.path.category)'; see GET /v1/categories")
    }
    return .ok(.init(body: .json(Self.category(found))))
  }

  func putCategory(_ input: Operations.PutCategory.Input) async throws -> Operations.PutCategory.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    let name = try Self.name(input.path.category, field: "category")
    guard CategoryName.key(name) != CategoryName.key(uncategorizedName) else {
      throw APIProblem.unprocessable(
        "'\(uncategorizedName)' is not a category one can set a kind on", field: "category")
    }
    let kind = CategoryKind(rawValue: body.kind.rawValue) ?? .expense
    try await backend.write { try $0.setCategoryKind(name, kind: kind) }
    guard let stored = try await backend.read({ try $0.category(named: name) }) else {
      throw APIProblem.notFound("category '\(name)' vanished")
    }
    return .ok(.init(body: .json(Self.category(stored))))
  }

  func deleteCategory(_ input: Operations.DeleteCategory.Input) async throws -> Operations.DeleteCategory.Output {
    let name = input.path.category
    guard try await backend.write({ try $0.forgetCategory(name) }) else {
      throw APIProblem.notFound("no category '\(input.path.category)'; see GET /v1/categories")
    }
    return .noContent(.init())
  }

  static func category(_ summary: CategorySummary) -> Components.Schemas.Category {
    .init(
      name: summary.name, kind: .init(rawValue: summary.kind.rawValue) ?? .expense, expenseCount: summary.expenseCount)
  }
}

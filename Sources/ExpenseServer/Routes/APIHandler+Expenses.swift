import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import OpenAPIRuntime

extension APIHandler {
  /// The largest page a client may ask for, and the page it gets without asking.
  static let maxPage = 500
  static let defaultPage = 100

  func listExpenses(_ input: Operations.ListExpenses.Input) async throws -> Operations.ListExpenses.Output {
    let query = input.query
    let limit = query.limit ?? Self.defaultPage
    guard (1...Self.maxPage).contains(limit) else {
      throw APIProblem.badRequest("'limit' must be between 1 and \(Self.maxPage) (got \(limit))", field: "limit")
    }
    let month = try query.month.map { try Self.month($0, field: "month") }
    let (category, cursor) = (query.category, query.cursor)
    var search: ExpenseSearch?
    if let text = query.search, text.count > 200 {
      throw APIProblem.badRequest("'search' is at most 200 characters (got \(text.count))", field: "search")
    }
    if query.search != nil || query.min != nil || query.max != nil || query.from != nil || query.to != nil
      || query.tag != nil
    {
      func bound(_ text: String?, _ field: String) throws -> AmountBound? {
        guard let text else { return nil }
        guard let bound = AmountBound(text) else {
          throw APIProblem.badRequest("'\(field)' must be an amount like 20 or 12.50, without a sign", field: field)
        }
        return bound
      }
      let from = try query.from.map { try Self.date($0, field: "from") }
      let through = try query.to.map { try Self.date($0, field: "to") }
      if let from, let through, through < from {
        throw APIProblem.unprocessable("'to' \(through) is before 'from' \(from)", field: "to")
      }
      search = ExpenseSearch(
        filter: ExpenseFilter(text: query.search, min: try bound(query.min, "min"), max: try bound(query.max, "max")),
        from: from, through: through, tag: query.tag)
    }
    let searching = search
    let page = try await backend.fromReplica {
      if let searching {
        return try $0.searchPage(month: month, category: category, search: searching, after: cursor, limit: limit)
      }
      return try $0.expensePage(month: month, category: category, after: cursor, limit: limit)
    }
    return .ok(.init(body: .json(.init(items: page.expenses.map(Self.expense), nextCursor: page.nextCursor))))
  }

  func getExpense(_ input: Operations.GetExpense.Input) async throws -> Operations.GetExpense.Output {
    let id = try Self.checkID(input.path.id)
    let expense = try await backend.fromReplica { try $0.expense(id: id) }
    return .ok(.init(body: .json(Self.expense(expense))))
  }

  func updateExpense(_ input: Operations.UpdateExpense.Input) async throws -> Operations.UpdateExpense.Output {
    let id = try Self.checkID(input.path.id)
    guard case .json(let patch) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    let change = ExpenseEdit(
      date: try patch.date.map { try Self.date($0, field: "date") }, amountMinor: patch.amountMinor,
      description: patch.description, category: patch.category, account: patch.account)
    guard !change.isEmpty else {
      throw APIProblem.badRequest(
        "nothing to change: give date, amountMinor, description, category or account", field: "body")
    }
    if let description = patch.description, description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw APIProblem.badRequest("'description' must not be empty", field: "description")
    }
    let edited = try await backend.write { try $0.editExpense(id: id, change) }
    return .ok(.init(body: .json(Self.expense(edited))))
  }

  func deleteExpense(_ input: Operations.DeleteExpense.Input) async throws -> Operations.DeleteExpense.Output {
    let (id, wholeSplit) = (try Self.checkID(input.path.id), input.query.wholeSplit ?? false)
    _ = try await backend.write { try $0.deleteExpenses(ids: [id], wholeSplits: wholeSplit) }
    return .noContent(.init())
  }

  /// The API's view of `ExpenseResource`: the same object, without its nulls.
  static func expense(_ expense: Expense) -> Components.Schemas.Expense {
    .init(
      id: expense.id ?? 0, date: expense.date.description, amountMinor: expense.amount.minor,
      currency: expense.amount.currency.code, description: expense.description, category: expense.category,
      account: expense.account, sourceFile: expense.source?.file, sourceLine: expense.source?.line,
      source: expense.source.map { .init(file: $0.file, line: $0.line) },
      tags: expense.tags.isEmpty ? nil : expense.tags,
      transferWith: expense.transferWith)
  }
}

import ExpenseService
import OpenAPIRuntime

/// Recurring payments found in the rows (`expenses recurring`, `recurring confirm|ignore`).
extension APIHandler {
  /// Listing gives a series seen for the first time its id, a write of the service's (never a
  /// change of the user's data), so it runs on the writer whatever the token's scope.
  func listRecurring(_ input: Operations.ListRecurring.Input) async throws -> Operations.ListRecurring.Output {
    let all = input.query.all ?? false
    let items = try await backend.write { try $0.recurring(includeIgnored: all) }
    return .ok(.init(body: .json(.init(series: items.map(Self.recurring)))))
  }

  func confirmRecurring(_ input: Operations.ConfirmRecurring.Input) async throws -> Operations.ConfirmRecurring.Output {
    let id = try Self.checkID(input.path.id)
    let item = try await backend.write { try $0.confirmRecurring(id: id) }
    return .ok(.init(body: .json(Self.recurring(item))))
  }

  func ignoreRecurring(_ input: Operations.IgnoreRecurring.Input) async throws -> Operations.IgnoreRecurring.Output {
    let id = try Self.checkID(input.path.id)
    let item = try await backend.write { try $0.ignoreRecurring(id: id) }
    return .ok(.init(body: .json(Self.recurring(item))))
  }

  static func recurring(_ item: RecurringItem) -> Components.Schemas.RecurringSeries {
    .init(
      id: item.id, name: item.name, payee: item.payee, currency: item.currency.code, category: item.category,
      interval: .init(rawValue: item.interval.rawValue) ?? .monthly, occurrences: item.occurrences,
      amountMinor: item.amountMinor, lowMinor: item.lowMinor, highMinor: item.highMinor,
      last: item.last.description, next: item.next.description,
      status: .init(rawValue: item.status.rawValue) ?? .expected,
      decision: .init(rawValue: item.decision) ?? .detected)
  }
}

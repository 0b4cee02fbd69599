import ExpenseCore
import ExpenseService
import OpenAPIRuntime

/// Accounts and their balance against the bank (`expenses accounts`).
extension APIHandler {
  func listAccounts(_ input: Operations.ListAccounts.Input) async throws -> Operations.ListAccounts.Output {
    let accounts = try await backend.fromReplica { try $0.accountStandings() }
    return .ok(.init(body: .json(.init(accounts: accounts.map(Self.account)))))
  }

  static func account(_ standing: AccountStanding) -> Components.Schemas.Account {
    .init(
      name: standing.name, rows: standing.rows, firstDate: standing.firstDate?.description,
      lastDate: standing.lastDate?.description,
      balances: standing.balances.map { balance in
        .init(
          currency: balance.currency.code, balanceMinor: balance.balanceMinor, statedCount: balance.statedCount,
          matchedOn: balance.matchedOn.description, matches: balance.matches, offByMinor: balance.offByMinor,
          offSince: balance.offSince?.description, firstRowAfterMatch: balance.firstRowAfterMatch.map(Self.expense))
      })
  }
}

import ExpenseCore
import ExpenseStore
import Foundation

extension ExpenseService {
  /// The account `name` names: an account's name, in any case, or the start or the end of
  /// exactly one account's name ("Checking" or "8812" for "Checking …8812", whose "…" a
  /// keyboard cannot easily type); `StoreError.accountNotFound` otherwise.
  func resolveAccount(_ name: String) throws -> String {
    let known = try store.accounts().map(\.name)
    let key = CategoryName.key(name)
    let ending = known.filter { !name.isEmpty && $0.hasSuffix(name) }
    let starting = known.filter { !key.isEmpty && CategoryName.key($0).hasPrefix(key) }
    guard
      let account = known.first(where: { $0 == name }) ?? known.first(where: { CategoryName.key($0) == key })
        ?? (ending.count == 1 ? ending.first : nil) ?? (starting.count == 1 ? starting.first : nil)
    else { throw StoreError.accountNotFound(name) }
    return account
  }

  /// The accounts the rows name, with their rows and span.
  public func accounts() throws -> [AccountSummary] { try store.accounts() }

  /// Renames account `name` to `newName`: every row, and every later import of a file that
  /// names it so (the rows' identity stays the file's name, so files imported before are still
  /// found). `name` names it as `resolveAccount` reads it. Returns the account's full name and
  /// how many rows were renamed.
  public func renameAccount(_ name: String, to newName: String) throws -> (account: String, rows: Int) {
    let target = newName.trimmingCharacters(in: .whitespaces)
    guard !target.isEmpty else { throw StoreError.invalidName(kind: "account", name: newName) }
    let account = try resolveAccount(name)
    // The balances its statements stated follow it: they are checked against its rows.
    return try recording("accounts rename") {
      // What the rename touches, for the history: the rows of both names, the names later
      // imports map, and the balances that follow the account.
      let ids = try store.expenses(from: nil, through: nil).filter { $0.account == account || $0.account == target }
        .compactMap(\.id)
      let rowsBefore = ids.count <= History.changeRowLimit ? try store.rowSnapshot(ids: ids) : nil
      let namesBefore = try store.accountNames()
      var added: [StoredRecord] = []
      var removed: [StoredRecord] = []
      let renamed = try store.renameAccount(account, to: target)
      for record in try StatementBalances.load(store) where record.body.balance.account == account {
        var body = record.body
        body.balance.account = target
        if let old = try store.record(kind: StatementBalances.records.name, id: record.id) { removed.append(old) }
        _ = try store.removeRecord(kind: StatementBalances.records.name, id: record.id)
        added.append(
          try store.addRecord(kind: StatementBalances.records.name, body: try StatementBalances.records.encoded(body)))
      }
      let summary = "accounts rename \(account) → \(target): \(renamed) rows"
      guard let rowsBefore else { return ((account, renamed), summary, .tooBig(rows: ids.count)) }
      let rowsAfter = try store.rowSnapshot(ids: rowsBefore.ids)
      let namesAfter = try store.accountNames()
      var settingsBefore: [String: String?] = [:]
      var settingsAfter: [String: String?] = [:]
      for name in Set(namesBefore.keys).union(namesAfter.keys) where namesBefore[name] != namesAfter[name] {
        settingsBefore[AccountNames.prefix + name] = .some(namesBefore[name])
        settingsAfter[AccountNames.prefix + name] = .some(namesAfter[name])
      }
      let effect = ChangeEffect.group([
        .rows(before: rowsBefore, after: rowsAfter), .settings(before: settingsBefore, after: settingsAfter),
        .records(kind: StatementBalances.records.name, added: added, removed: removed),
      ])
      return ((account, renamed), summary, .effect(effect))
    }
  }
}

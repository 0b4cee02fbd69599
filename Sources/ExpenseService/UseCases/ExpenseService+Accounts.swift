import ExpenseCore
import ExpenseStore
import Foundation

extension ExpenseService {
  /// The accounts the rows name, with their rows and span.
  public func accounts() throws -> [AccountSummary] { try store.accounts() }

  /// Renames account `name` to `newName`: every row, and every later import of a file that
  /// names it so (the rows' identity stays the file's name, so files imported before are still
  /// found). `name` is an account's name, in any case, or the end of exactly one account's name
  /// ("8812" for "Card …8812", which a keyboard cannot easily type). Returns the account's full
  /// name and how many rows were renamed.
  public func renameAccount(_ name: String, to newName: String) throws -> (account: String, rows: Int) {
    let target = newName.trimmingCharacters(in: .whitespaces)
    guard !target.isEmpty else { throw StoreError.invalidName(kind: "account", name: newName) }
    let known = try store.accounts().map(\.name)
    let key = CategoryName.key(name)
    let account =
      known.first { $0 == name } ?? known.first { CategoryName.key($0) == key }
      ?? {
        let ending = known.filter { !name.isEmpty && $0.hasSuffix(name) }
        return ending.count == 1 ? ending.first : nil
      }()
    guard let account else { throw StoreError.accountNotFound(name) }
    return (account, try store.renameAccount(account, to: target))
  }
}

import ExpenseCore

/// Spells `AccountPath`s as valid, distinct account names of one journal format.
///
/// Each format has its rules (`LedgerNames`, `BeancountNames`); two user names that spell the
/// same (`Dining out` and `Dining-out` in beancount) get `-2`, `-3` suffixes in a stable order,
/// so no two categories ever merge into one account and the per-category totals stay exact.
struct AccountNames {
  private(set) var spelled: [AccountPath: String] = [:]

  /// - Parameters:
  ///   - paths: every account the journal uses.
  ///   - spell: the account's full name for a root and a cleaned name component.
  ///   - component: the user's name made valid as one component of the format.
  init(_ paths: Set<AccountPath>, spell: (AccountPath.Root, String) -> String, component: (String) -> String) {
    var taken: Set<String> = []
    for path in paths.sorted() {
      let base = component(path.name)
      var candidate = spell(path.root, base)
      var n = 2
      // Case-insensitively distinct: hledger's and beancount's reports compare exactly, but a
      // reader should never see two accounts that differ only in case.
      while taken.contains(candidate.lowercased()) {
        candidate = spell(path.root, base + "-\(n)")
        n += 1
      }
      taken.insert(candidate.lowercased())
      spelled[path] = candidate
    }
  }

  subscript(_ path: AccountPath) -> String { spelled[path] ?? "" }
}

extension Money {
  /// The plain decimal with the sign flipped, exact even for `Int64.min`.
  var negatedDecimalString: String {
    let text = decimalString
    if text.hasPrefix("-") { return String(text.dropFirst()) }
    return minor == 0 ? text : "-" + text
  }
}

import ExpenseCore
import ExpenseImport
import ExpenseStore

/// Gives an imported row without a category of its own one from the user's rules, else from
/// the built-in own-account transfer patterns, and every category its stored spelling.
///
/// Used only by the parse thread, in file order (hence a class without locks, handed over as
/// `Unchecked`): a category's stored spelling is its first in the file.
final class RowCategorizer {
  let matcher: RuleMatcher
  var names: CategoryNames

  init(matcher: RuleMatcher, names: CategoryNames) {
    self.matcher = matcher
    self.names = names
  }

  func canonical(_ raw: String) -> String? { names.canonical(raw) }

  /// Categorizes `row` when it has no category; returns the id of the user's rule that did
  /// (for a dry run's preview), if one did.
  func categorize(_ row: inout ImportedRow) -> Int64? {
    guard row.category == nil else { return nil }
    if let rule = matcher.match(description: row.description, account: row.account) {
      row.setCategory(rule.category, source: .rule)
      return rule.id
    } else if let pattern = TransferPatterns.category(description: row.description) {
      // A built-in pattern is a rule the user did not write: `rules apply` may re-sort it.
      row.setCategory(names.canonical(pattern), source: .rule)
    }
    return nil
  }
}

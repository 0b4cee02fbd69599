import ExpenseCore
import ExpenseImport
import ExpenseStore

/// Gives an imported row without a category of its own one from the user's rules, else from
/// the built-in own-account transfer patterns, and every category its stored spelling.
///
/// Used only by the parse thread (hence a class without locks, handed over as `Unchecked`).
final class RowCategorizer {
  let matcher: RuleMatcher
  var names: CategoryNames
  /// In a dry run, which rule categorized which line (for the preview); empty otherwise.
  let recordRules: Bool
  private var rules: [Int: Int64] = [:]

  init(matcher: RuleMatcher, names: CategoryNames, recordRules: Bool) {
    self.matcher = matcher
    self.names = names
    self.recordRules = recordRules
  }

  /// The stored spelling of a category cell (the first spelling seen for a new category).
  func canonical(_ raw: String) -> String? { names.canonical(raw) }

  /// Fills in the category and where it came from.
  func categorize(_ row: inout ImportedRow) {
    guard row.category == nil else { return }
    if let rule = matcher.match(description: row.description, account: row.account) {
      row.setCategory(rule.category, source: .rule)
      if recordRules { rules[row.line] = rule.id }
    } else if let pattern = TransferPatterns.category(description: row.description) {
      // A built-in pattern is a rule the user did not write: `rules apply` may re-sort it.
      row.setCategory(names.canonical(pattern), source: .rule)
    }
  }

  /// The rules recorded since the last call (one batch's worth).
  func takeRules() -> [Int: Int64] {
    defer { rules.removeAll() }
    return rules
  }
}

import ExpenseRender
import ExpenseService

/// The "did you mean" warning every command that names a category prints before it creates a
/// new one (`budget set`, `categories set-kind`, `rules add`): a typo would otherwise start a
/// second category silently. The command still does what was asked.
enum CategoryHint {
  /// Writes to stderr, when `name` is no known category but one is within edit distance 2:
  /// `expenses: no category 'Grocries' yet; did you mean 'Groceries'? Setting the budget for
  /// 'Grocries' as asked.` `action` is what is done with the name ("Setting the budget for").
  static func warn(_ service: ExpenseService, category name: String, action: String) throws {
    guard let near = try service.categorySuggestion(for: name) else { return }
    let typed = TerminalText.sanitize(name)
    try Console.err(
      "expenses: no category '\(typed)' yet; did you mean '\(TerminalText.sanitize(near))'? "
        + "\(action) '\(typed)' as asked.\n")
  }
}

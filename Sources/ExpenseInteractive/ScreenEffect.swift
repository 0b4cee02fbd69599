import ExpenseCore
import ExpenseRender

/// What the screen asks its driver to do after a key: the screen itself owns no database.
public enum ScreenEffect: Equatable, Sendable {
  /// Save these section states as the preferences (every collapsible section's state).
  case saveSections(SectionStates)
  /// Save accordion mode on or off.
  case saveAccordion(Bool)
  /// Load the report of another month and hand it to `ReportScreen.replaceReport`.
  case loadMonth(Month)
  /// Row `expenseID` is to go into `category`: find the rule worth offering beside it and hand
  /// it to `ReportScreen.offerRule` (nil when there is none).
  case proposeCategory(expenseID: Int64, category: String)
  /// File row `expenseID` into `category`, and add the rule `rulePattern` with it when given:
  /// one change (`ExpenseService.fileExpense`); then hand the month's report to
  /// `ReportScreen.refreshReport`.
  case file(expenseID: Int64, category: String, rulePattern: String?)
  /// Undo the last change (`ExpenseService.undo`), then `refreshReport`.
  case undo
  /// Find the rows of every month holding `text` (as `list --search`) and hand the newest to
  /// `ReportScreen.showSearch`.
  case search(String)
  /// Leave the screen and restore the terminal.
  case quit
}

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
  /// Leave the screen and restore the terminal.
  case quit
}

import ExpenseCore
import ExpenseRender
import ExpenseService

/// The interactive report's one way to the data: each effect of the pure screen
/// (`ExpenseInteractive`) is one call of the service every front end uses.
struct InteractiveData {
  var service: ExpenseService

  /// The month's report with every section loaded, expense rows included, so that folding on
  /// screen never has to go back to the database.
  func report(month: Month, today: CivilDate) throws -> BudgetReport {
    try service.fullReport(month: month, today: today)
  }

  /// The saved states with one-off `--expand`/`--collapse` applied, resolved as `sections`
  /// resolves them (compact width: every collapsible section has its own state).
  func sections(expand: [String], collapse: [String]) throws -> SectionStates {
    try service.resolveSections(expand: expand, collapse: collapse, windowSize: .compact)
  }

  func accordionMode() throws -> Bool { try service.savedSections().accordion }

  /// Saves every collapsible section's state (one transaction).
  func saveSections(_ states: SectionStates) throws { try service.saveSections(states) }

  /// Saves accordion mode, as `expenses sections accordion on|off` does (the screen has folded
  /// the other sections itself and saves them next).
  func saveAccordion(_ on: Bool) throws { try service.storeAccordion(on) }

  /// The ledger's category names, for the screen's completion.
  func categoryNames() throws -> [String] { try service.categories().map(\.name) }

  /// The rule worth offering beside a row filed into `category`, if any.
  func ruleOffer(expenseID: Int64, category: String) throws -> RuleOffer? {
    try service.ruleOffer(forExpense: expenseID, category: category)
  }

  /// Files the row (and adds the rule), as one change of the history.
  func file(expenseID: Int64, category: String, rulePattern: String?) throws -> FilingResult {
    try service.fileExpense(id: expenseID, category: category, rulePattern: rulePattern)
  }

  /// Undoes the last change, as `expenses undo` does.
  func undo() throws -> UndoResult { try service.undo() }

  /// The newest rows of every month holding `text` (`/` then Tab), and how many there are.
  func search(_ text: String) throws -> (rows: [Expense], total: Int) {
    try service.searchRows(ExpenseSearch(filter: ExpenseFilter(text: text)), limit: ExpenseService.searchRowLimit)
  }
}

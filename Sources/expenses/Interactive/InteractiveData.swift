import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore

/// The interactive report's one way to the database, through the service layer the other front
/// ends use: load a month, read and save the section states and accordion mode. Everything else
/// on the screen is pure (`ExpenseInteractive`).
struct InteractiveData {
  var database: AppDatabase

  /// The month's report with every section loaded, expense rows included, so that folding on
  /// screen never has to go back to the database.
  func report(month: Month, today: CivilDate) throws -> BudgetReport {
    try ReportLoader(database: database).report(
      month: month, today: today, including: Set(SectionID.allCases), explainCategories: true)
  }

  /// The saved states with one-off `--expand`/`--collapse` applied, resolved as `sections`
  /// resolves them (compact width: every collapsible section has its own state).
  func sections(expand: [String], collapse: [String]) throws -> SectionStates {
    try SectionService(database: database).resolve(expand: expand, collapse: collapse, windowSize: .compact)
  }

  func accordionMode() throws -> Bool { try SectionService(database: database).accordion() }

  /// Saves every collapsible section's state (one transaction).
  func saveSections(_ states: SectionStates) throws { try SectionService(database: database).save(states) }

  /// Saves accordion mode, as `expenses sections accordion on|off` does (the screen has folded
  /// the other sections itself and saves them next).
  func saveAccordion(_ on: Bool) throws { try SectionService(database: database).storeAccordion(on) }
}

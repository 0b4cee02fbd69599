import ExpenseCore
import ExpenseRender
import ExpenseStore

/// The interactive report's one way to the database: load a month, read and save the section
/// states and accordion mode. Everything else on the screen is pure (`ExpenseInteractive`).
struct InteractiveData {
  var database: AppDatabase

  /// The month's report with every section loaded, expense rows included, so that folding on
  /// screen never has to go back to the database.
  func report(month: Month, today: CivilDate) throws -> BudgetReport {
    var everything: [SectionID: Bool] = [:]
    for id in SectionID.allCases { everything[id] = true }
    return try ReportLoader(database: database).report(
      month: month, today: today, sections: SectionStates(expanded: everything))
  }

  /// The saved states with one-off `--expand`/`--collapse` applied, resolved as `sections`
  /// resolves them (compact width: every collapsible section has its own state).
  func sections(expand: [String], collapse: [String]) throws -> SectionStates {
    try SectionStates.resolve(
      saved: try database.savedSections(), expand: expand, collapse: collapse, accordion: try accordionMode(),
      windowSize: .compact)
  }

  func accordionMode() throws -> Bool { try database.accordionMode() }

  /// Saves every collapsible section's state (one transaction).
  func saveSections(_ states: SectionStates) throws { try database.saveSections(states) }

  /// Saves accordion mode, as `expenses sections accordion on|off` does.
  func saveAccordion(_ on: Bool) throws { try database.setSetting("accordion", on ? "on" : "off") }
}

import ExpenseRender
import ExpenseStore

/// The bridge between saved section preferences (ids as text in SQLite) and the renderer's
/// `SectionStates`, shared by `report`, `demo` and `sections`.
extension AppDatabase {
  /// Saved states by section id; ids this version does not know are ignored.
  func savedSections() throws -> [SectionID: Bool] {
    var saved: [SectionID: Bool] = [:]
    for (key, value) in try sectionStates() { if let id = SectionID(rawValue: key) { saved[id] = value } }
    return saved
  }

  /// Whether accordion mode is on.
  func accordionMode() throws -> Bool { try setting("accordion") == "on" }

  /// Saves the expanded state of every collapsible section.
  func saveSections(_ states: SectionStates) throws {
    var toSave: [String: Bool] = [:]
    for id in SectionID.allCases where id != .summary { toSave[id.rawValue] = states.isExpanded(id) }
    try saveSectionStates(toSave)
  }
}

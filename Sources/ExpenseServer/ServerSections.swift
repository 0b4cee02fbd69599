import ExpenseRender
import ExpenseStore

/// Section changes from the API, through the resolution the CLI's `sections` uses.
enum ServerSections {
  static func apply(_ change: SectionChange, to current: SavedSections, database: AppDatabase) throws {
    switch change {
    case .accordion(let on):
      try database.setSetting("accordion", on ? "on" : "off")
    case .section(let id, let expanded):
      let states = try SectionStates.resolve(
        saved: current.expanded, expand: expanded ? [id.rawValue] : [], collapse: expanded ? [] : [id.rawValue],
        accordion: current.accordion, windowSize: .compact)
      var toSave: [String: Bool] = [:]
      for id in SectionID.allCases where id != .summary { toSave[id.rawValue] = states.isExpanded(id) }
      try database.saveSectionStates(toSave)
    }
  }
}

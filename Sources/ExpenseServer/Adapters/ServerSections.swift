import ExpenseRender
import ExpenseService
import ExpenseStore

/// Section changes from the API, through the service the CLI's `sections` uses.
enum ServerSections {
  static func apply(_ change: SectionChange, database: AppDatabase) throws {
    let service = SectionService(database: database)
    switch change {
    case .accordion(let on): try service.setAccordion(on)
    case .section(let id, let expanded):
      try service.change(expand: expanded ? [id.rawValue] : [], collapse: expanded ? [] : [id.rawValue])
    }
  }

  static func saved(_ database: AppDatabase) throws -> SavedSections {
    let service = SectionService(database: database)
    return SavedSections(expanded: try service.saved(), accordion: try service.accordion())
  }
}

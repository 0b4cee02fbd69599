import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses sections`: the report's sections and their remembered expand/collapse states.
struct SectionsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sections",
    abstract: "Show, expand, collapse or reset the report's sections (remembered in the database).",
    discussion: """
      Section ids: summary, category-performance, expenses, trends. 'all' means every collapsible section. category-performance is collapsible only in compact width (< 60 columns); in wider terminals it is always shown.

      Examples:
        expenses sections
        expenses sections expand expenses
        expenses sections collapse all
        expenses sections accordion on
        expenses sections reset
      """,
    subcommands: [List.self, Expand.self, Collapse.self, Reset.self, Accordion.self],
    defaultSubcommand: List.self)

  /// The section table `sections` prints after every command.
  static func describe(_ service: ExpenseService, width: Int = TerminalEnvironment().width(option: nil)) throws
    -> String
  {
    let rows = try service.sectionEntries().map { entry in
      [
        entry.id, entry.title, (entry.expanded ? "expanded" : "collapsed") + (entry.saved ? " (saved)" : ""),
        entry.collapsibleIn == .compact ? "compact only" : entry.collapsibleIn.rawValue,
      ]
    }
    let table = ColumnTable(header: ["id", "title", "state", "collapsible"], rows: rows)
    return table.render(width: width) + "accordion: \(try service.settings().accordion ? "on" : "off")\n"
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List section ids, titles and saved states.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    func run() throws {
      try Console.out(try SectionsCommand.describe(try database.reading(), width: layout.resolved))
    }
  }

  struct Expand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "expand", abstract: "Expand a section in every later report: ID or all.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Section id or 'all'.") var id: String
    func run() throws {
      let service = try database.writing()
      try service.changeSections(expand: [id], collapse: [])
      try Console.out(try SectionsCommand.describe(service))
    }
  }

  struct Collapse: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "collapse", abstract: "Collapse a section in every later report: ID or all.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Section id or 'all'.") var id: String
    func run() throws {
      let service = try database.writing()
      try service.changeSections(expand: [], collapse: [id])
      try Console.out(try SectionsCommand.describe(service))
    }
  }

  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reset", abstract: "Forget saved states: back to the defaults.")
    @OptionGroup var database: DatabaseOptions
    func run() throws {
      let service = try database.writing()
      try service.resetSections()
      try Console.out(try SectionsCommand.describe(service))
    }
  }

  struct Accordion: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "accordion",
      abstract: "Accordion mode: at most one collapsible section expanded; expanding one collapses the others.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "on or off.") var state: String
    func validate() throws {
      guard state == "on" || state == "off" else { throw ValidationError("accordion takes 'on' or 'off'") }
    }
    func run() throws {
      let service = try database.writing()
      try service.setAccordion(state == "on")
      try Console.out(try SectionsCommand.describe(service))
    }
  }
}

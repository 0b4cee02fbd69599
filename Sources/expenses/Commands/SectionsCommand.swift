import ArgumentParser
import ExpenseRender
import ExpenseStore
import Foundation

/// `expenses sections`: the report's sections and their remembered expand/collapse states.
struct SectionsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sections",
    abstract: "Show, expand, collapse or reset the report's sections (remembered in the database).",
    discussion: """
      Section ids: summary, category-performance, expenses, trends. 'all' means every
      collapsible section. category-performance is collapsible only in compact width (< 60
      columns); in wider terminals it is always shown.

      Examples:
        expenses sections
        expenses sections expand expenses
        expenses sections collapse all
        expenses sections accordion on
        expenses sections reset
      """,
    subcommands: [List.self, Expand.self, Collapse.self, Reset.self, Accordion.self],
    defaultSubcommand: List.self)

  /// Applies a change to the saved states through the same resolution the report uses (so
  /// accordion mode and id validation behave identically), then saves the result.
  static func change(_ db: AppDatabase, expand: [String], collapse: [String]) throws -> SectionStates {
    let states = try SectionStates.resolve(
      saved: try db.savedSections(), expand: expand, collapse: collapse, accordion: try db.accordionMode(),
      windowSize: .compact)
    try db.saveSections(states)
    return states
  }

  static func describe(_ db: AppDatabase) throws -> String {
    let saved = try db.sectionStates()
    let accordion = try db.accordionMode()
    let states = try SectionStates.resolve(
      saved: try db.savedSections(), expand: [], collapse: [], accordion: accordion, windowSize: .compact)
    var lines = ["id                    title                 state      collapsible"]
    for id in SectionID.allCases {
      let state = states.isExpanded(id) ? "expanded" : "collapsed"
      let origin = saved[id.rawValue] == nil ? "" : " (saved)"
      let collapsible: String
      switch id {
      case .summary: collapsible = "never"
      case .categoryPerformance: collapsible = "compact only"
      default: collapsible = "always"
      }
      lines.append(
        id.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0)
          + id.title.padding(toLength: 22, withPad: " ", startingAt: 0)
          + (state + origin).padding(toLength: 19, withPad: " ", startingAt: 0).trimmingCharacters(in: .whitespaces)
          .padding(toLength: 11, withPad: " ", startingAt: 0) + collapsible)
    }
    lines.append("accordion: \(accordion ? "on" : "off")")
    return lines.joined(separator: "\n")
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List section ids, titles and saved states.")
    @OptionGroup var database: DatabaseOptions
    func run() throws { print(try SectionsCommand.describe(try database.openForReading())) }
  }

  struct Expand: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Expand a section in every later report: ID or all.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Section id or 'all'.") var id: String
    func run() throws {
      let db = try database.open()
      _ = try SectionsCommand.change(db, expand: [id], collapse: [])
      print(try SectionsCommand.describe(db))
    }
  }

  struct Collapse: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Collapse a section in every later report: ID or all.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Section id or 'all'.") var id: String
    func run() throws {
      let db = try database.open()
      _ = try SectionsCommand.change(db, expand: [], collapse: [id])
      print(try SectionsCommand.describe(db))
    }
  }

  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Forget saved states: back to the defaults.")
    @OptionGroup var database: DatabaseOptions
    func run() throws {
      let db = try database.open()
      try db.resetSectionStates()
      print(try SectionsCommand.describe(db))
    }
  }

  struct Accordion: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Accordion mode: at most one collapsible section expanded; expanding one collapses the others.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "on or off.") var state: String
    func validate() throws {
      guard state == "on" || state == "off" else { throw ValidationError("accordion takes 'on' or 'off'") }
    }
    func run() throws {
      let db = try database.open()
      try db.setSetting("accordion", state)
      if state == "on" { _ = try SectionsCommand.change(db, expand: [], collapse: []) }
      print(try SectionsCommand.describe(db))
    }
  }
}

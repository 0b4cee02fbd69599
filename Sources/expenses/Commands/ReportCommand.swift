import ArgumentParser

/// `expenses report`: the budget report for a month, fitted to the terminal.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Print the budget report for a month.",
    discussion: """
      Sections: summary, category-performance, expenses, trends. Layout follows the width:
      compact (< 60 columns) cards, regular (60-99) a table, wide (>= 100) a table with
      3-month average, change, pace and projection.

      Examples:
        expenses report
        expenses report --month 2026-10 --today 2026-10-20 --width 40
        expenses report --expand expenses --details
        expenses report --format json
      """)

  @OptionGroup var database: DatabaseOptions
  @OptionGroup var options: ReportOptions

  func run() throws {
    // Reading takes no lock; only --save (which stores section states) opens for writing.
    let db = try options.save ? database.open() : database.openForReading()
    try ReportPrinter(database: db, options: options, defaultToday: systemToday()).print()
  }
}

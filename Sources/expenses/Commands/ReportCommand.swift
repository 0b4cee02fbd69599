import ArgumentParser
import ExpenseService

/// `expenses report`: the budget report for a month, fitted to the terminal.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Print the budget report for a month.",
    discussion: """
      Sections: summary, category-performance, expenses, trends. Layout follows the width: compact (< 60 columns) cards, regular (60-99) a table, wide (>= 100) a table with the trailing average (of up to 3 complete months, named: 1-mo, 2-mo, 3-mo avg), change, pace and projection.

      Spent counts expense categories only: income, transfers and unsorted money in (money in without a category) are shown on their own lines; refunds above purchases show as a credit.

      Pace: what a category should have spent by today, its budget times the share of a month's spending it usually has done by this day (from its last 6 months; evenly by day without history).

      Projected: what it will have spent at month end, spent so far plus what it usually spends in the rest of a month, less what is already recorded after today (spent scaled to the whole month without history; a category with money out on fewer than 3 days and no history projects to what it spent); never below spent, and what was spent on the month's last day.

      The headline compares what budgeted categories spent with the budget; spending without a budget is stated beside it. A category whose spending by today is more than 10% of its budget ahead of its pace is marked "ahead" before it is over.

      Without --month the report is of today's month; when that month has no rows but the database has some, it says so and names the command for the latest month with data.

      JSON, CSV, Markdown and HTML carry every section's content whatever the saved states (the sections array reports them); text shows what is expanded.

      Examples:
        expenses report
        expenses report --month 2026-10 --today 2026-10-20
        expenses report --width 40 --expand expenses --details
        expenses report --format json
      """)

  @OptionGroup var database: DatabaseOptions
  @OptionGroup var options: ReportOptions

  @Flag(help: "Open the report full screen to fold and browse with keys (as 'expenses browse').")
  var interactive = false
  @OptionGroup var screen: InteractiveOptions

  func run() throws {
    if interactive { return try BrowseCommand.run(database: database, options: options, screen: screen) }
    // Reading takes no lock; only --save (which stores section states) opens for writing.
    let service = try options.save ? database.writing() : database.reading()
    try ReportPrinter(service: service, options: options).print()
  }
}

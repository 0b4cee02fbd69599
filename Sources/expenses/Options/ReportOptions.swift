import ArgumentParser
import ExpenseCore
import ExpenseService

/// Options shared by `report` and `demo`: what month, which day is today, and how to print.
struct ReportOptions: ParsableArguments {
  @Option(help: "The month to report on, YYYY-MM (default: the month of --today).")
  var month: String?

  @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).")
  var today: String?

  @Option(help: "Output format: text, json, csv, md or html.")
  var format: ReportFormat = .text

  @Option(help: "Width in terminal columns (default: $COLUMNS, else the terminal, else 80); at least 20.")
  var width: Int?

  @Option(help: "Colour: auto (only on a terminal, never with NO_COLOR), always or never.")
  var color: ColorChoice = .auto

  @Flag(help: "Use ASCII glyphs only (> v # ...), for terminals without UTF-8.")
  var ascii = false

  @Flag(help: "Plain output for screen readers: sections stated in words, no bars.")
  var plain = false

  @Option(name: .customLong("expand"), help: "Expand a section for this report: ID or all (repeatable).")
  var expand: [String] = []

  @Option(name: .customLong("collapse"), help: "Collapse a section for this report: ID or all (repeatable).")
  var collapse: [String] = []

  @Flag(help: "Remember --expand/--collapse as the saved section states.")
  var save = false

  @Option(
    help:
      "Months in the Trends section, ending with the report's (1-36, default 12); the text shows as many of the newest as fit."
  )
  var months: Int?

  @Flag(help: "Expand every expense row into its details (full description, account, source line).")
  var details = false

  @Flag(help: "One line that fits the width: what is left, days, categories over, goals behind.")
  var brief = false

  @Flag(
    name: .customLong("exit-status"),
    help: "Exit with 3 when a category is over or projected over its budget (0 otherwise; errors keep their codes).")
  var exitStatus = false

  func validate() throws {
    if let width, width < 20 {
      throw ValidationError("--width must be at least 20 columns (got \(width)); the report needs 20 to stay readable")
    }
    if let month { _ = try parseMonth(month) }
    if let today { _ = try parseToday(today) }
    if let months, !(1...ReportLoader.maxTrendMonths).contains(months) {
      throw ValidationError("--months takes 1 to \(ReportLoader.maxTrendMonths) (got \(months))")
    }
  }

  func parseMonth(_ text: String) throws -> Month {
    try DateArgument.month(text)
  }

  func parseToday(_ text: String) throws -> CivilDate {
    try DateArgument.date(text)
  }
}

extension ColorChoice: ExpressibleByArgument {}

extension ReportFormat: ExpressibleByArgument {}

import ArgumentParser
import ExpenseInteractive
import ExpenseRender
import ExpenseService

/// `expenses browse`: the report as a full-screen view to fold, scroll and filter with keys.
struct BrowseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "browse",
    abstract: "Open the report full screen: fold sections and expand rows with keys (same as report --interactive).",
    discussion: """
      Keys: Up/Down or j/k move; Space/Enter fold a section or expand a row; Left/Right collapse or expand; e/c expand or collapse all; a accordion mode; PgUp/PgDn, Home/End, g/G; / filters rows; m/M or [/] previous/next month; ? shows the keys; q or Esc quits. Mouse clicks toggle headers and rows. Every fold is saved, as 'expenses sections' would save it. Needs a terminal on standard input and output (else exit 64).

      Examples:
        expenses browse
        expenses browse --month 2026-10 --today 2026-10-20 --no-animation
      """)

  @OptionGroup var database: DatabaseOptions
  @OptionGroup var options: ReportOptions
  @OptionGroup var screen: InteractiveOptions

  func run() throws {
    try BrowseCommand.run(database: database, options: options, screen: screen)
  }

  /// What `browse` and `report --interactive` both do.
  static func run(database: DatabaseOptions, options: ReportOptions, screen: InteractiveOptions) throws {
    try InteractiveReport.requireTerminal()
    guard options.format == .text else {
      throw CLIFailure(message: "the interactive report is text only; drop --format", kind: .usage)
    }
    let service = try database.writing().pinning(today: try options.today.map(options.parseToday))
    let today = service.clock.today()
    let month = try options.month.map(options.parseMonth) ?? today.calendarMonth
    let data = InteractiveData(service: service)
    let terminal = TerminalEnvironment()
    let settings = ScreenSettings(
      glyphs: options.ascii || !terminal.localeIsUTF8 ? .ascii : .unicode, color: terminal.useColor(options.color),
      animation: !screen.noAnimation)
    let interactive = InteractiveReport(
      data: data, month: month, today: today, settings: settings,
      sections: try data.sections(expand: options.expand, collapse: options.collapse),
      accordion: try data.accordionMode())
    let status = try interactive.run()
    if status != 0 { throw ExitCode(status) }
  }
}

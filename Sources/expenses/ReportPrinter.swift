import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// Turns `ReportOptions` into a printed report: resolves width, glyphs, colour, month and
/// today from the options and the terminal, then asks the service for the text.
struct ReportPrinter {
  /// The service, whose clock says "today" when `--today` is not given (the system's, or the
  /// demo's last sample day).
  var service: ExpenseService
  var options: ReportOptions
  var terminal = TerminalEnvironment()

  /// The request these options make on this terminal.
  func request() throws -> ReportRequest {
    let today = try options.today.map(options.parseToday) ?? service.clock.today()
    var request = ReportRequest(today: today, month: try options.month.map(options.parseMonth), format: options.format)
    request.width = terminal.width(option: options.width)
    request.glyphs = options.ascii || !terminal.localeIsUTF8 ? .ascii : .unicode
    request.plain = options.plain
    request.color = terminal.useColor(options.color)
    request.details = options.details
    request.expand = options.expand
    request.collapse = options.collapse
    request.save = options.save
    if let months = options.months { request.trendMonths = months }
    return request
  }

  func print() throws {
    let request = try request()
    if options.brief {
      let (text, alarm) = try service.briefReport(request)
      try Console.out(text)
      return try exit(on: alarm)
    }
    if request.format == .json {
      // A month of many expenses goes out as its rows are read, a block at a time.
      var out = Console.outputBuffer()
      try service.writeReport(request, into: &out)
      try out.flush()
    } else {
      try Console.out(try service.renderReport(request))
    }
    if options.exitStatus { try exit(on: try service.reportAlarm(request)) }
  }

  /// `--exit-status`: ends with `BudgetAlarm.exitCode` when the alarm is raised.
  func exit(on alarm: BudgetAlarm) throws {
    if options.exitStatus && alarm.isRaised { throw ExitCode(BudgetAlarm.exitCode) }
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// Turns `ReportOptions` into a printed report: resolves width, glyphs, colour, month and
/// today from the options and the terminal, then asks `ReportService` for the text.
struct ReportPrinter {
  var database: AppDatabase
  var options: ReportOptions
  /// "Today" when `--today` is not given (the system date, or the demo's last sample day).
  var defaultToday: CivilDate
  var terminal = TerminalEnvironment()

  /// The request these options make on this terminal.
  func request() throws -> ReportRequest {
    let today = try options.today.map(options.parseToday) ?? defaultToday
    var request = ReportRequest(today: today, month: try options.month.map(options.parseMonth), format: options.format)
    request.width = terminal.width(option: options.width)
    request.glyphs = options.ascii || !terminal.localeIsUTF8 ? .ascii : .unicode
    request.plain = options.plain
    request.color = terminal.useColor(options.color)
    request.details = options.details
    request.expand = options.expand
    request.collapse = options.collapse
    request.save = options.save
    return request
  }

  func print() throws {
    try Console.out(try ReportService(database: database).render(try request()))
  }
}

/// The system date in the local time zone: the one place the clock is read.
func systemToday() -> CivilDate {
  let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
  // Foundation gives a real date; the epoch only stands in for a clock that gives none.
  return CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    ?? CivilDate(daysSinceEpoch: 0)
}

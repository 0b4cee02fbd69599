import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseStore
import Foundation

/// Turns `ReportOptions` into a printed report: resolves width, glyphs, colour and section
/// states from the options, the terminal and the saved preferences, then renders.
struct ReportPrinter {
  var database: AppDatabase
  var options: ReportOptions
  /// "Today" when `--today` is not given (the system date, or the demo's last sample day).
  var defaultToday: CivilDate
  var terminal = TerminalEnvironment()

  func render() throws -> String {
    let today = try options.today.map(options.parseToday) ?? defaultToday
    let month = try options.month.map(options.parseMonth) ?? today.calendarMonth
    let width = terminal.width(option: options.width)
    guard width >= 20 else {
      throw CLIFailure(
        message: "the width is \(width) columns; the report needs at least 20 (set --width)", code: SysExit.usage)
    }
    // Machine formats never depend on the terminal: their section states are resolved as if
    // every section were collapsible (what is saved), whatever the width.
    let windowSize = options.format == .text ? WindowSize(width: width) : .compact
    let savedByID = try database.savedSections()
    let accordion = try database.accordionMode()
    let sections = try SectionStates.resolve(
      saved: savedByID, expand: options.expand, collapse: options.collapse, accordion: accordion,
      windowSize: windowSize)
    if options.save && !(options.expand.isEmpty && options.collapse.isEmpty) {
      let all = try SectionStates.resolve(
        saved: savedByID, expand: options.expand, collapse: options.collapse, accordion: accordion,
        windowSize: .compact)
      try database.saveSections(all)
    }

    // The page and document formats hold every section's content (collapsed only hides it).
    let loaded =
      [.html, .md, .csv].contains(options.format)
      ? SectionStates(expanded: [.expenses: true, .trends: true]) : sections
    let report = try ReportLoader(database: database).report(month: month, today: today, sections: loaded)
    switch options.format {
    case .json: return JSONRenderer(sections: sections).render(report)
    case .csv: return CSVRenderer(sections: sections).render(report)
    case .md: return MarkdownRenderer(sections: sections).render(report)
    case .html: return HTMLRenderer(sections: sections).render(report)
    case .text:
      let glyphs: GlyphSet = options.ascii || !terminal.localeIsUTF8 ? .ascii : .unicode
      let renderOptions = RenderOptions(
        width: width, glyphs: glyphs, plain: options.plain, color: terminal.useColor(options.color),
        details: options.details, sections: sections)
      return TextRenderer(options: renderOptions).render(report)
    }
  }

  func print() throws {
    var text = try render()
    if text.utf8.last != UInt8(ascii: "\n") { text += "\n" }  // a CSV ends in one "\r\n" Character
    try Console.out(text)
  }
}

/// The system date in the local time zone: the one place the clock is read.
func systemToday() -> CivilDate {
  let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
  return CivilDate(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1)!
}

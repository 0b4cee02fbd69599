import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses list`: the stored expenses, newest first.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List expenses, newest first.",
    discussion: """
      Examples:
        expenses list --month 2026-10
        expenses list --category Groceries --format json
      """)

  @OptionGroup var database: DatabaseOptions
  @Option(help: "Only this month, YYYY-MM.") var month: String?
  @Option(help: "Only this category ('Uncategorized' for rows without one).") var category: String?
  @Option(help: "Output: text, json or csv.") var format: ListFormat = .text
  @Option(help: "Width for text output (default: $COLUMNS, the terminal, else 80); at least 20.") var width: Int?
  @Flag(help: "ASCII glyphs only.") var ascii = false

  func validate() throws {
    if let month { _ = try DateArgument.month(month) }
    if let width, width < 20 { throw ValidationError("--width must be at least 20 columns") }
  }

  func run() throws {
    let service = try database.reading()
    let listFormat: ExpenseService.ListFormat
    switch format {
    case .json: listFormat = .json
    case .csv: listFormat = .csv
    case .text:
      let terminal = TerminalEnvironment()
      let glyphs: GlyphSet = ascii || !terminal.localeIsUTF8 ? .ascii : .unicode
      listFormat = .text(width: terminal.width(option: width), glyphs: glyphs)
    }
    // Rows go out as they are read, a block at a time (every format ends with a newline).
    var out = Console.outputBuffer()
    try service.writeExpenses(
      month: try month.map(DateArgument.month), category: category, format: listFormat, into: &out)
    try out.flush()
  }
}

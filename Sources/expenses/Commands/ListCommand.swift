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
      A search looks in every month (or --month's, or --from to --to): --search finds text in the description, category or account, ignoring case and accents ("cafe" finds "CAFÉ MÜLLER"); --min and --max bound the size of the amount, spent or received, in each row's own currency. The text table then ends with how many rows it found and their total per currency.

      Examples:
        expenses list --month 2026-10
        expenses list --category Groceries --format json
        expenses list --search lisbon --from 2026-08-01 --to 2026-08-31
        expenses list --search uber --min 20
        expenses list --tag trip-lisbon
      """)

  @OptionGroup var database: DatabaseOptions
  @Option(help: "Only this month, YYYY-MM.") var month: String?
  @Option(help: "Only this category ('Uncategorized' for rows without one).") var category: String?
  @Option(help: "Only rows holding this text (any month; case and accents ignored).") var search: String?
  @Option(help: "Only amounts of at least this size, e.g. 20 or 12.50.") var min: String?
  @Option(help: "Only amounts of at most this size.") var max: String?
  @Option(help: "Only from this day on, YYYY-MM-DD.") var from: String?
  @Option(help: "Only up to this day, YYYY-MM-DD.") var to: String?
  @Option(help: "Only rows with this tag (any month).") var tag: String?
  @Option(help: "Output: text, json or csv.") var format: ListFormat = .text
  @Option(help: "Width for text output (default: $COLUMNS, the terminal, else 80); at least 20.") var width: Int?
  @Flag(help: "ASCII glyphs only.") var ascii = false

  func validate() throws {
    if let month { _ = try DateArgument.month(month) }
    for (flag, value) in [("--min", min), ("--max", max)] {
      if let value, AmountBound(value) == nil {
        throw ValidationError("\(flag) takes an amount like 20 or 12.50, without a sign ('\(value)')")
      }
    }
    if let from { _ = try DateArgument.date(from) }
    if let to { _ = try DateArgument.date(to) }
    if let from, let to, let first = try? DateArgument.date(from), let last = try? DateArgument.date(to), last < first {
      throw ValidationError("--to \(last) is before --from \(first)")
    }
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
    var searching: ExpenseSearch?
    if search != nil || min != nil || max != nil || from != nil || to != nil || tag != nil {
      searching = ExpenseSearch(
        filter: ExpenseFilter(text: search, min: min.flatMap(AmountBound.init), max: max.flatMap(AmountBound.init)),
        from: try from.map(DateArgument.date), through: try to.map(DateArgument.date), tag: tag)
    }
    try service.writeExpenses(
      month: try month.map(DateArgument.month), category: category, format: listFormat, into: &out,
      search: searching)
    try out.flush()
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService

/// `expenses recurring [list|confirm|ignore]`: the recurring payments found in the rows.
struct RecurringCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recurring",
    abstract: "List the recurring payments found in the rows; confirm or ignore one.",
    discussion: """
      A series is a payee paid weekly, monthly, quarterly or yearly, at least three times, each payment within a few days of its due date, in one amount or a band (the largest at most twice the smallest). A series never adds rows: the bank's files stay the truth. The month's report lists what is still due (section recurring), and its projection expects those amounts instead of extrapolating them.

      Examples:
        expenses recurring
        expenses recurring confirm 3
        expenses recurring ignore 7
        expenses recurring --all --format json
      """,
    subcommands: [List.self, Confirm.self, Ignore.self], defaultSubcommand: List.self)

  /// `#3 NETFLIX.COM: $15.49 monthly · next 2026-11-05 · 14 payments · Subscriptions`.
  static func line(_ item: RecurringItem) -> String {
    func money(_ minor: Int64) -> String { Money(minor: minor, currency: item.currency).formatted }
    let amount =
      item.lowMinor == item.highMinor
      ? money(item.amountMinor) : "\(money(item.amountMinor)) (\(money(item.lowMinor))–\(money(item.highMinor)))"
    var parts = ["\(amount) \(item.interval.rawValue)"]
    switch item.status {
    case .expected: parts.append("next \(item.next)")
    case .late: parts.append("late since \(item.next)")
    case .stopped: parts.append("stopped, last \(item.last)")
    }
    parts.append("\(item.occurrences) payments")
    if let category = item.category { parts.append(category) }
    if item.decision != "detected" { parts.append(item.decision) }
    return "#\(item.id) \(item.name): " + parts.joined(separator: " · ")
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the series found, late first, each with its id.")
    @OptionGroup var database: DatabaseOptions
    @Flag(help: "Also list the ignored series.") var all = false
    @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).") var today: String?
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func validate() throws { if let today { _ = try DateArgument.date(today) } }

    func run() throws {
      // A listing must not create a database: a missing one is refused as any read's is (66).
      _ = try database.reading()
      let service = try database.writing().pinning(today: try today.map(DateArgument.date))
      let items = try service.recurring(includeIgnored: all)
      if format == .json { return try Console.line(try SafeJSON.list(items)) }
      let text =
        items.isEmpty
        ? "No recurring payments found: a series needs at least three payments to one payee at a steady interval."
        : items.map(RecurringCommand.line).joined(separator: "\n")
      try Console.out(FittedText.fit(text, width: layout.resolved))
    }
  }

  /// What `confirm` and `ignore` take: the series' id (and a pinned today).
  struct Decision: ParsableArguments {
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The series' id, as 'recurring' shows it (#3 or 3).") var id: String
    @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).") var today: String?
    @OptionGroup var layout: WidthOptions

    func validate() throws {
      _ = try RecordID.parse(id, what: "recurring series", listedBy: "expenses recurring")
      if let today { _ = try DateArgument.date(today) }
    }

    /// Decides series `id` with `decide` and prints `done` and the series.
    func run(_ done: String, _ decide: (ExpenseService, Int64) throws -> RecurringItem) throws {
      let number = try RecordID.parse(id, what: "recurring series", listedBy: "expenses recurring")
      let service = try database.writing().pinning(today: try today.map(DateArgument.date))
      let item = try decide(service, number)
      try Console.out(FittedText.fit(done + " " + RecurringCommand.line(item), width: layout.resolved))
    }
  }

  struct Confirm: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "confirm", abstract: "Confirm a series (or bring an ignored one back).")
    @OptionGroup var decision: Decision

    func run() throws { try decision.run("Confirmed") { try $0.confirmRecurring(id: $1) } }
  }

  struct Ignore: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "ignore", abstract: "Ignore a series: it leaves the report and its projection.")
    @OptionGroup var decision: Decision

    func run() throws { try decision.run("Ignored") { try $0.ignoreRecurring(id: $1) } }
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService

/// `expenses tag add|remove|list|budget|delete`: tags across categories ("what did the trip cost").
struct TagCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tag",
    abstract: "Tag rows across categories, total a tag, and give it a budget over a span of days.",
    discussion: """
      A row has a tag when it was tagged by hand (tag add) or a rule of the tag matches it (rules add PATTERN CATEGORY --tag TAG; tag remove takes a row out). A tag is letters a-z, digits and - _ . /; it shows in list --tag, the report's tags section, JSON, and the ledger and beancount exports.

      Examples:
        expenses tag add trip-lisbon 41 42 57
        expenses tag budget trip-lisbon 1500 --from 2026-08-01 --to 2026-08-31
        expenses list --tag trip-lisbon
        expenses tag list
      """,
    subcommands: [List.self, Add.self, Remove.self, Budget.self, Delete.self], defaultSubcommand: List.self)

  /// `trip-lisbon: 14 rows · $1,245.00 · $1,245.00 of $1,500.00 (83%) 2026-08-01 to 2026-08-31`.
  static func line(_ tag: TagSummary) -> String {
    var parts = [tag.count == 1 ? "1 row" : "\(tag.count) rows"]
    parts += tag.totals.map { Money(minor: $0.spentMinor, currency: $0.currency).formatted }
    if let budget = tag.budget {
      let spent = Money(minor: tag.budgetSpentMinor ?? 0, currency: budget.currency).formatted
      let amount = Money(minor: budget.amountMinor, currency: budget.currency).formatted
      parts.append("\(spent) of \(amount) (\(tag.percentUsed ?? 0)%) \(budget.from) to \(budget.to)")
    }
    if !tag.rules.isEmpty { parts.append("rules " + tag.rules.map { "#\($0)" }.joined(separator: " ")) }
    return "\(tag.name): " + parts.joined(separator: " · ")
  }

  static func ids(_ raw: [String]) throws -> [Int64] {
    try raw.map { try RecordID.parse($0, what: "expense", listedBy: "expenses list") }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the tags with their rows' totals and budgets.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let tags = try database.reading().tags()
      if format == .json { return try Console.line(try SafeJSON.list(tags)) }
      let text =
        tags.isEmpty
        ? "No tags yet. Tag rows: expenses tag add TAG ID..." : tags.map(TagCommand.line).joined(separator: "\n")
      try Console.out(FittedText.fit(text, width: layout.resolved))
    }
  }

  /// What `add` and `remove` take: the tag and the rows.
  struct Rows: ParsableArguments {
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The tag, e.g. trip-lisbon.") var tag: String
    @Argument(help: "The rows' ids, as 'list' shows them.") var ids: [String]
    @OptionGroup var layout: WidthOptions

    func validate() throws {
      guard !ids.isEmpty else { throw ValidationError("name at least one row id: expenses tag add|remove TAG ID...") }
      _ = try TagCommand.ids(ids)
    }

    /// Changes the rows' tag with `change` and prints `done` and the tag.
    func run(_ done: String, _ change: (ExpenseService, String, [Int64]) throws -> TagSummary) throws {
      let summary = try change(try database.writing(), tag, try TagCommand.ids(ids))
      try Console.out(FittedText.fit(done + " " + TagCommand.line(summary), width: layout.resolved))
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Tag rows (the tag is made when new); all or none.")
    @OptionGroup var rows: Rows

    func run() throws { try rows.run("Tagged.") { try $0.addTag($1, to: $2) } }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Take a tag off rows (off a rule's matches too).")
    @OptionGroup var rows: Rows

    func run() throws { try rows.run("Untagged.") { try $0.removeTag($1, from: $2) } }
  }

  struct Budget: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "budget", abstract: "Give a tag a budget over a span of days.",
      discussion: """
        The rows with the tag dated --from through --to count against it, whatever their category; the report's tags section shows how far in it is.

        Example:
          expenses tag budget trip-lisbon 1500 --from 2026-08-01 --to 2026-08-31
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The tag.") var tag: String
    @Argument(help: "The amount, e.g. 1500 or 1500.00.") var amount: String
    @Option(help: "The first day, YYYY-MM-DD.") var from: String
    @Option(help: "The last day, YYYY-MM-DD.") var to: String
    @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
    @OptionGroup var layout: WidthOptions

    func validate() throws {
      _ = try DateArgument.date(from)
      _ = try DateArgument.date(to)
    }

    func run() throws {
      let tag = try database.writing().setTagBudget(
        tag, amount: amount, currency: currency, from: try DateArgument.date(from), to: try DateArgument.date(to))
      try Console.out(FittedText.fit("Budget set. " + TagCommand.line(tag), width: layout.resolved))
    }
  }

  struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete", abstract: "Delete a tag: its rows and rules keep everything else.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The tag.") var tag: String
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let tag = try database.writing().deleteTag(tag)
      try Console.out(FittedText.fit("Deleted tag \(tag.name) (\(tag.count) rows)", width: layout.resolved))
    }
  }
}

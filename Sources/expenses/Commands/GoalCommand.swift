import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses goal add|list|remove`: amounts to set aside in a category by a month.
struct GoalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "goal",
    abstract: "Add, list and remove goals: an amount set aside in a category by a month.",
    subcommands: [Add.self, List.self, Remove.self], defaultSubcommand: List.self)

  /// `#1 New car (Car): $0.00 of $10,000.00 by Dec 2027 · needs $714.29/mo · on track`.
  static func line(_ goal: GoalProgress) -> String {
    let parts = GoalWords.parts(goal) { Money(minor: $0, currency: $1).formatted }
    return "#\(goal.goal.id) \(goal.goal.name) (\(goal.goal.category)): " + parts.joined(separator: " · ")
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a goal: AMOUNT set aside in --category by the end of --by.",
      discussion: """
        What it needs each month is computed from what is set aside, every month anew: the
        category's available amount under rollover (budget set CATEGORY N --rollover all),
        else what was spent in it (money moved toward the goal) since the goal was added.

        Example:
          expenses goal add "New car" 10000 --by 2027-12 --category Car
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The goal's name.") var name: String
    @Argument(help: "The amount to set aside, e.g. 10000 or 10000.00.") var amount: String
    @Option(help: "The month it is wanted by, YYYY-MM.") var by: String
    @Option(help: "The category the money is set aside in.") var category: String
    @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
    @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).") var today: String?
    @OptionGroup var layout: WidthOptions

    func validate() throws {
      _ = try DateArgument.month(by)
      if let today { _ = try DateArgument.date(today) }
    }

    func run() throws {
      let service = try database.writing().pinning(today: try today.map(DateArgument.date))
      try CategoryHint.warn(service, category: category, action: "Setting the goal in")
      let goal = try service.addGoal(
        name: name, amount: amount, by: try DateArgument.month(by), category: category, currency: currency)
      try Console.out(FittedText.fit("Added goal " + GoalCommand.line(goal), width: layout.resolved))
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List goals with what each needs per month and whether it is on track.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).") var today: String?
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func validate() throws { if let today { _ = try DateArgument.date(today) } }

    func run() throws {
      let goals = try database.reading().pinning(today: try today.map(DateArgument.date)).goals()
      if format == .json { return try Console.out(try SafeJSON.list(goals) + "\n") }
      let text =
        goals.isEmpty
        ? "No goals yet. Add one: expenses goal add NAME AMOUNT --by YYYY-MM --category CATEGORY"
        : goals.map(GoalCommand.line).joined(separator: "\n")
      try Console.out(FittedText.fit(text, width: layout.resolved))
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a goal.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Argument(help: "The goal's id, as 'goal list' shows it (#2 or 2).") var id: String

    func validate() throws { _ = try RecordID.parse(id, what: "goal", listedBy: "expenses goal list") }

    func run() throws {
      let number = try RecordID.parse(id, what: "goal", listedBy: "expenses goal list")
      let goal = try database.writing().removeGoal(id: number)
      try Console.out(FittedText.fit("Removed goal #\(goal.id) \(goal.name)", width: layout.resolved))
    }
  }
}

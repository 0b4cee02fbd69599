import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses budget set|list|remove`: monthly budgets per category.
struct BudgetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "budget",
    abstract: "Set, list and remove monthly budgets.",
    subcommands: [Set.self, List.self, Remove.self])

  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Set the monthly budget of a category (every month, or one month with --month).",
      discussion: """
        With --rollover, what is left at the end of a month (surplus), or what is left and
        what went over (all), carries into the next month, from this month on (or from
        --month). Setting the amount again without --rollover keeps the mode.

        Examples:
          expenses budget set Groceries 400
          expenses budget set Groceries 400 --rollover all
          expenses budget set Travel 1200 --month 2026-12
          expenses budget set Food 30000 --currency JPY
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var category: String
    @Argument(help: "Amount per month, e.g. 400 or 400.00.") var amount: String
    @Option(help: "Only for this month, YYYY-MM (default: every month).") var month: String?
    @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
    @Option(help: "Carry into the next month: all, surplus or off (default: as it was; off when new).")
    var rollover: RolloverMode?
    @Option(help: "Treat this date as today, YYYY-MM-DD: the month a rollover starts (default: the system date).")
    var today: String?

    func validate() throws {
      if let month { _ = try DateArgument.month(month) }
      if let today { _ = try DateArgument.date(today) }
      if amount.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
        throw ValidationError(CoreError.negativeBudget(amount).description)
      }
    }

    func run() throws {
      let service = try database.writing().pinning(today: try today.map(DateArgument.date))
      let month = try month.map(DateArgument.month)
      try CategoryHint.warn(service, category: category, action: "Setting the budget for")
      let budget = try service.setBudget(
        category: category, amount: amount, month: month, currency: currency, rollover: rollover)
      let when = month.map { "for \($0.longName)" } ?? "per month"
      print("Budget for \(TerminalText.sanitize(category)): \(budget.amount.formatted) \(when)")
      if rollover != nil {
        let mode = try service.rollover(of: budget)
        print(mode == .off ? "Rollover: off" : "Rollover: \(mode.rawValue), carried month to month")
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List budgets.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func run() throws {
      let listed = try database.reading().budgetsWithRollover()
      let budgets = listed.map(\.0)
      if format == .json {
        let rows = listed.map { BudgetResource($0.0, rollover: $0.1) }
        return try Console.out(try SafeJSON.text(rows) + "\n")
      }
      if budgets.isEmpty {
        return try Console.out(
          FittedText.fit("No budgets yet. Set one: expenses budget set CATEGORY AMOUNT", width: layout.resolved))
      }
      let anyRollover = listed.contains { $0.1 != .off }
      let table = ColumnTable(
        header: ["category", "budget", "month"] + (anyRollover ? ["rollover"] : []),
        rows: listed.map { budget, mode in
          [budget.category, budget.amount.formatted, budget.month.map { "only \($0)" } ?? "every month"]
            + (anyRollover ? [mode.rawValue] : [])
        })
      try Console.out(table.render(width: layout.resolved))
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove a category's budget (the default, or one month's override with --month).")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var category: String
    @Option(help: "Remove only this month's override, YYYY-MM.") var month: String?
    @Option(help: "Only the budget in this currency.") var currency: String?

    func validate() throws {
      // Any four-digit year: a budget an older version stored outside the range can be removed.
      if let month { _ = try DateArgument.storedMonth(month) }
    }

    func run() throws {
      let month = try month.map(DateArgument.storedMonth)
      try database.writing().removeBudget(category: category, month: month, currency: currency)
      print("Removed the budget of \(TerminalText.sanitize(category))\(month.map { " for \($0)" } ?? "")")
    }
  }
}

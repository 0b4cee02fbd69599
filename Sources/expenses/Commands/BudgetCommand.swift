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
        Examples:
          expenses budget set Groceries 400
          expenses budget set Travel 1200 --month 2026-12
          expenses budget set Food 30000 --currency JPY
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var category: String
    @Argument(help: "Amount per month, e.g. 400 or 400.00.") var amount: String
    @Option(help: "Only for this month, YYYY-MM (default: every month).") var month: String?
    @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?

    func validate() throws {
      if let month { _ = try DateArgument.month(month) }
      if amount.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
        throw ValidationError(CoreError.negativeBudget(amount).description)
      }
    }

    func run() throws {
      let service = try database.writing()
      let month = try month.map(DateArgument.month)
      try CategoryHint.warn(service, category: category, action: "Setting the budget for")
      let budget = try service.setBudget(category: category, amount: amount, month: month, currency: currency)
      let when = month.map { "for \($0.longName)" } ?? "per month"
      print("Budget for \(TerminalText.sanitize(category)): \(budget.amount.formatted) \(when)")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List budgets.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func run() throws {
      let budgets = try database.reading().budgets()
      if format == .json {
        let rows = budgets.map(BudgetResource.init)
        return try Console.out(try SafeJSON.text(rows) + "\n")
      }
      if budgets.isEmpty {
        return try Console.out(
          FittedText.fit("No budgets yet. Set one: expenses budget set CATEGORY AMOUNT", width: layout.resolved))
      }
      let table = ColumnTable(
        header: ["category", "budget", "month"],
        rows: budgets.map { [$0.category, $0.amount.formatted, $0.month.map { "only \($0)" } ?? "every month"] })
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

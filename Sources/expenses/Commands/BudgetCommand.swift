import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses budget set|list|remove`: monthly budgets per category.
struct BudgetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "budget",
    abstract: "Set, list and remove budgets (monthly, quarterly or yearly).",
    subcommands: [Set.self, List.self, Remove.self, Suggest.self, BudgetMoveCommand.self, BudgetMovesCommand.self])

  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Set the budget of a category (every month, or one month with --month).",
      discussion: """
        With --rollover, what is left at the end of a month (surplus), or what is left and
        what went over (all), carries into the next month, from this month on (or from
        --month). Setting the amount again without --rollover keeps the mode.

        With --period quarter or year, the amount is for each calendar quarter or year: a
        month's report measures the period's spending so far against it, and counts only
        the month's share in the month's total. Setting the amount again without --period
        keeps the period.

        Examples:
          expenses budget set Groceries 400
          expenses budget set Groceries 400 --rollover all
          expenses budget set Groceries --from-average 3
          expenses budget set Travel 1200 --month 2026-12
          expenses budget set Travel 2400 --period year
          expenses budget set Food 30000 --currency JPY
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var category: String
    @Argument(help: "Amount per month (or per --period), e.g. 400 or 400.00 (or --from-average).")
    var amount: String?
    @Option(
      name: .customLong("from-average"),
      help: "Instead of an amount: the average spent in the last N complete months, rounded to a whole unit.")
    var fromAverage: Int?
    @Option(help: "Only for this month, YYYY-MM (default: every month).") var month: String?
    @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
    @Option(help: "Carry into the next month: all, surplus or off (default: as it was; off when new).")
    var rollover: RolloverMode?
    @Option(help: "How long the amount lasts: month, quarter or year (default: as it was; month when new).")
    var period: BudgetPeriod?
    @Option(help: "Treat this date as today, YYYY-MM-DD: the month a rollover starts (default: the system date).")
    var today: String?
    @OptionGroup var layout: WidthOptions

    func validate() throws {
      if let month { _ = try DateArgument.month(month) }
      if let today { _ = try DateArgument.date(today) }
      switch (amount, fromAverage) {
      case (nil, nil): throw ValidationError("give an amount, or --from-average N")
      case (.some, .some): throw ValidationError("give an amount or --from-average N, not both")
      case (_, .some(let months)) where !(1...24).contains(months):
        throw ValidationError("--from-average takes 1 to 24 months, not \(months)")
      default: break
      }
      if let amount, amount.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
        throw ValidationError(CoreError.negativeBudget(amount).description)
      }
    }

    func run() throws {
      let service = try database.writing().pinning(today: try today.map(DateArgument.date))
      let month = try month.map(DateArgument.month)
      try CategoryHint.warn(service, category: category, action: "Setting the budget for")
      let budget: Budget
      var average: BudgetSuggestion?
      if let amount {
        budget = try service.setBudget(
          category: category, amount: amount, month: month, currency: currency, rollover: rollover, period: period)
      } else {
        (budget, average) = try service.setBudgetFromAverage(
          category: category, months: fromAverage ?? 3, month: month, currency: currency, rollover: rollover,
          period: period)
      }
      let length = try service.period(of: budget)
      let when = month.map { "for \($0.longName)" } ?? "per \(length.rawValue)"
      var lines = ["Budget for \(category): \(budget.amount.formatted) \(when)"]
      if let average {
        let spent = Money(minor: average.averageMinor, currency: average.currency).formatted
        lines.append("From the average of \(BudgetCommand.monthNames(average.months)): \(spent)")
      }
      if rollover != nil {
        let mode = try service.rollover(of: budget)
        lines.append(mode == .off ? "Rollover: off" : "Rollover: \(mode.rawValue), carried month to month")
      }
      try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List budgets.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func run() throws {
      let listed = try database.reading().budgetsWithTerms()
      let budgets = listed.map(\.budget)
      if format == .json { return try Console.out(try SafeJSON.text(listed) + "\n") }
      if budgets.isEmpty {
        return try Console.out(
          FittedText.fit("No budgets yet. Set one: expenses budget set CATEGORY AMOUNT", width: layout.resolved))
      }
      let anyRollover = listed.contains { $0.rollover != .off }
      let table = ColumnTable(
        header: ["category", "budget", "for"] + (anyRollover ? ["rollover"] : []),
        rows: listed.map { row in
          let every = row.period == .month ? "every month" : "every \(row.period.rawValue)"
          return [row.budget.category, row.budget.amount.formatted, row.budget.month.map { "only \($0)" } ?? every]
            + (anyRollover ? [row.rollover.rawValue] : [])
        })
      try Console.out(table.render(width: layout.resolved))
    }
  }

  /// A month list for a sentence: `Aug, Sep, Oct 2026`, `Dec 2025, Jan, Feb 2026`.
  static func monthNames(_ months: [Month]) -> String {
    months.enumerated().map { index, month in
      let last = index == months.count - 1 || months[index + 1].year != month.year
      return last ? "\(month.shortName) \(month.year)" : month.shortName
    }.joined(separator: ", ")
  }

  struct Suggest: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "suggest",
      abstract: "Suggest a budget for every category that spends without one, from its average.",
      discussion: """
        Each suggestion is the average spent in the last complete months (3 unless --months),
        rounded to a whole unit of the currency; months before your first data are not counted.
        Set one with: expenses budget set CATEGORY --from-average 3
        """)
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "How many complete months to average, 1 to 24.") var months: Int = 3
    @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).") var today: String?
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func validate() throws {
      guard (1...24).contains(months) else { throw ValidationError("--months takes 1 to 24, not \(months)") }
      if let today { _ = try DateArgument.date(today) }
    }

    func run() throws {
      let service = try database.reading().pinning(today: try today.map(DateArgument.date))
      let suggestions = try service.budgetSuggestions(months: months)
      if format == .json { return try Console.out(try SafeJSON.list(suggestions) + "\n") }
      guard let first = suggestions.first else {
        return try Console.out(
          FittedText.fit(
            "Nothing to suggest: every category that spent in the last \(months) complete months has a budget.",
            width: layout.resolved))
      }
      let table = ColumnTable(
        header: ["category", "suggested", "average"],
        rows: suggestions.map {
          [
            $0.category, Money(minor: $0.amountMinor, currency: $0.currency).formatted,
            Money(minor: $0.averageMinor, currency: $0.currency).formatted,
          ]
        })
      try Console.out(table.render(width: layout.resolved))
      try Console.out(
        FittedText.fit(
          "Averages of \(BudgetCommand.monthNames(first.months)). Set one: expenses budget set CATEGORY --from-average \(months)",
          width: layout.resolved))
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

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses budget move AMOUNT FROM TO`: budget moved between categories in one month.
struct BudgetMoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "move",
    abstract: "Move budget from one category to another in one month.",
    discussion: """
      The month's budget of FROM is AMOUNT smaller and TO's as much larger; the budgets you set
      stay as they are, and the report says what moved. 'expenses budget moves' lists the
      moves and 'expenses budget moves remove ID' takes one back.

      Example:
        expenses budget move 50 "Dining out" Groceries
      """)
  @OptionGroup var database: DatabaseOptions
  @Argument(help: "Amount to move, more than 0, e.g. 50 or 50.00.") var amount: String
  @Argument(help: "The category the budget comes from.") var from: String
  @Argument(help: "The category it goes to.") var to: String
  @Option(help: "The month, YYYY-MM (default: the month of --today).") var month: String?
  @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
  @Option(help: "Treat this date as today, YYYY-MM-DD (default: the system date).") var today: String?
  @OptionGroup var layout: WidthOptions

  func validate() throws {
    if let month { _ = try DateArgument.month(month) }
    if let today { _ = try DateArgument.date(today) }
  }

  func run() throws {
    let service = try database.writing().pinning(today: try today.map(DateArgument.date))
    for name in [from, to] { try CategoryHint.warn(service, category: name, action: "Moving budget with") }
    let move = try service.moveBudget(
      amount: amount, from: from, to: to, month: try month.map(DateArgument.month), currency: currency)
    let money = Money(minor: move.amountMinor, currency: move.currency).formatted
    try Console.out(
      FittedText.fit(
        "Moved \(money) from \(move.from) to \(move.to) for \(move.month.longName) (move #\(move.id))\n"
          + "Take it back: expenses budget moves remove \(move.id)", width: layout.resolved))
  }
}

/// `expenses budget moves [list|remove]`: the moves made, and taking one back.
struct BudgetMovesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "moves",
    abstract: "List budget moves, or remove one.",
    subcommands: [List.self, Remove.self], defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List budget moves.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Option(help: "Only this month's, YYYY-MM.") var month: String?
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func validate() throws { if let month { _ = try DateArgument.month(month) } }

    func run() throws {
      let moves = try database.reading().budgetMoves(month: try month.map(DateArgument.month))
      if format == .json { return try Console.out(try SafeJSON.list(moves) + "\n") }
      if moves.isEmpty {
        return try Console.out(
          FittedText.fit("No budget moves. Make one: expenses budget move AMOUNT FROM TO", width: layout.resolved))
      }
      let table = ColumnTable(
        header: ["id", "month", "amount", "from", "to"],
        rows: moves.map {
          [
            "#\($0.id)", $0.month.description, Money(minor: $0.amountMinor, currency: $0.currency).formatted, $0.from,
            $0.to,
          ]
        })
      try Console.out(table.render(width: layout.resolved))
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Take a budget move back (its month's budgets are as before it).")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Argument(help: "The move's id, as 'budget moves' lists it (#3 or 3).") var id: String

    func validate() throws { _ = try RecordID.parse(id, what: "move", listedBy: "expenses budget moves") }

    func run() throws {
      let number = try RecordID.parse(id, what: "move", listedBy: "expenses budget moves")
      let move = try database.writing().removeBudgetMove(id: number)
      let money = Money(minor: move.amountMinor, currency: move.currency).formatted
      try Console.out(
        FittedText.fit(
          "Removed move #\(move.id): \(money) from \(move.from) to \(move.to) for \(move.month.longName)",
          width: layout.resolved))
    }
  }
}

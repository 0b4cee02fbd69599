import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore

/// `expenses edit ID [--date] [--amount] [--description] [--category] [--account]`.
struct EditCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit",
    abstract: "Change one expense; it keeps its id.",
    discussion: """
      --amount is read like 'add': money out unless it starts with '+', in the row's own currency. An empty --category or --account clears it. A category set here is yours:
      'rules apply' never changes it.

      A part of a split transaction (a QIF record shared among categories) keeps its amount and date, which belong to the bank's transaction: changing them is refused (exit 64) naming every part; its category, description and account change freely.

      Examples:
        expenses edit 42 --amount 12.50 --category "Dining out"
        expenses edit 42 --date 2026-10-21 --description "Lunch with Sam"
        expenses edit 42 --category ""
      """)

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "Id of the expense (see 'expenses list').") var id: Int64
  @Option(help: "New date, YYYY-MM-DD.") var date: String?
  @Option(help: "New amount spent (e.g. 12.50); prefix '+' for money in.") var amount: String?
  @Option(help: "New description.") var description: String?
  @Option(help: "New category ('' for none).") var category: String?
  @Option(help: "New account ('' for none).") var account: String?

  func validate() throws {
    if let date { _ = try DateArgument.date(date) }
    if let description, description.allSatisfy(\.isWhitespace) {
      throw ValidationError("the description is empty")
    }
    if date == nil && amount == nil && description == nil && category == nil && account == nil {
      throw ValidationError("nothing to change: give --date, --amount, --description, --category or --account")
    }
  }

  func run() throws {
    let edited = try database.writing().editExpense(
      id: id, date: try date.map(DateArgument.date), amount: amount, description: description, category: category,
      account: account)
    let category = edited.category.map(TerminalText.sanitize) ?? uncategorizedName
    try Console.line(
      "Edited #\(id): \(edited.date) \(edited.amount.formatted) \(TerminalText.sanitize(edited.description)) "
        + "· \(category)")
  }
}

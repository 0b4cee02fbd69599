import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses add DATE AMOUNT DESCRIPTION`: records one expense by hand.
struct AddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Add one expense by hand.",
    discussion: """
      AMOUNT is money out unless it starts with '+': 'add 2026-10-20 4.50 Coffee' records -4.50.

      Examples:
        expenses add 2026-10-20 4.50 "Coffee" --category "Dining out"
        expenses add 2026-10-31 +2500 "Salary" --category Salary
      """)

  @OptionGroup var database: DatabaseOptions

  @Argument(help: "Date, YYYY-MM-DD.") var date: String
  @Argument(help: "Amount spent (e.g. 12.50); prefix '+' for money in (a refund).") var amount: String
  @Argument(help: "What it was.") var text: String
  @Option(help: "Category name.") var category: String?
  @Option(help: "Account name.") var account: String?
  @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
  @Option(help: "Output: text or json.") var format: SummaryFormat = .text

  func validate() throws {
    _ = try DateArgument.date(date)
    if text.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the description is empty") }
  }

  func run() throws {
    let expense = try database.writing().addExpense(
      date: try DateArgument.date(date), amount: amount, description: text, category: category, account: account,
      currency: currency)
    if format == .json {
      try Console.out(ExpenseResource.json([expense]) + "\n")
    } else {
      print(
        "Added #\(expense.id ?? 0): \(expense.date) \(expense.amount.formatted) \(TerminalText.sanitize(text))")
    }
  }
}

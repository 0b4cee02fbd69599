import ArgumentParser
import ExpenseCore
import ExpenseRender
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
    let db = try database.open()
    let currency = try currency.map { code throws(CoreError) in try Currency.parse(code) } ?? db.defaultCurrency()
    let money = Money(minor: try AddCommand.signedMinor(amount, currency: currency), currency: currency)
    let expense = try db.addExpense(
      Expense(date: try DateArgument.date(date), amount: money, description: text, category: category, account: account)
    )
    if format == .json {
      try Console.out(ExpenseJSON.encode([expense]) + "\n")
    } else {
      print("Added #\(expense.id ?? 0): \(expense.date) \(money.formatted) \(TerminalText.sanitize(text))")
    }
  }

  /// A typed amount as stored: typed amounts are what was spent, stored ones are signed
  /// (negative = out), so '4.50' is -450 and '+25' is 2500 (shared with `edit`).
  static func signedMinor(_ text: String, currency: Currency) throws(CoreError) -> Int64 {
    let money = try Money.parse(text.hasPrefix("+") ? String(text.dropFirst()) : text, currency: currency)
    return text.hasPrefix("+") || text.hasPrefix("-") ? money.minor : -money.minor
  }
}

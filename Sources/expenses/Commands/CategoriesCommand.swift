import ArgumentParser
import ExpenseCore
import ExpenseRender
import Foundation

/// `expenses categories`: the categories in use, and marking some as income.
struct CategoriesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "categories",
    abstract: "List categories, or set a category's kind (expense or income).",
    subcommands: [List.self, SetKind.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List categories with their kind and number of expenses.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text

    func run() throws {
      let categories = try database.openForReading().categories()
      if format == .json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(categories), as: UTF8.self))
        return
      }
      if categories.isEmpty {
        print("No categories yet: import a file with a category column, add rules, or set budgets.")
        return
      }
      for category in categories {
        let kind = category.kind == .income ? "  (income)" : ""
        print("\(TerminalText.sanitize(category.name))  \(category.expenseCount)\(kind)")
      }
    }
  }

  struct SetKind: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set-kind",
      abstract: "Mark a category as income (reported apart from spending) or expense.",
      discussion: "Example: expenses categories set-kind Salary income")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var name: String
    @Argument(help: "expense or income.") var kind: String

    func validate() throws {
      guard CategoryKind(rawValue: kind) != nil else {
        throw ValidationError("kind must be 'expense' or 'income', not '\(kind)'")
      }
    }

    func run() throws {
      try database.open().setCategoryKind(name, kind: CategoryKind(rawValue: kind)!)
      print("\(TerminalText.sanitize(name)) is now \(kind == "income" ? "an income" : "an expense") category")
    }
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses categories`: the categories in use, and marking some as income.
struct CategoriesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "categories",
    abstract: "List categories, set a category's kind (expense, income or transfer), or remove an unused one.",
    subcommands: [List.self, SetKind.self, Remove.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List categories with their kind and number of expenses.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let categories = try database.reading().categories()
      if format == .json {
        print(try SafeJSON.text(categories))
        return
      }
      if categories.isEmpty {
        let text = "No categories yet: import a file with a category column, add rules, or set budgets."
        return try Console.out(FittedText.fit(text, width: layout.resolved))
      }
      let table = ColumnTable(
        header: ["category", "kind", "expenses"],
        rows: categories.map { [$0.name, $0.kind.rawValue, String($0.expenseCount)] })
      try Console.out(table.render(width: layout.resolved))
    }
  }

  struct SetKind: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set-kind",
      abstract: "Mark a category as expense, income or transfer.",
      discussion: """
        expense: counts as spending (a refund lowers it). income: reported as income. transfer: money \
        moved between your own accounts (card payments, savings, top-ups), neither spending nor income.
        A name no category has is refused (a typo would start a second category); --create makes it, \
        to set its kind before its first row.
        Example: expenses categories set-kind Salary income
        """)
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var name: String
    @Argument(help: "expense, income or transfer.") var kind: String
    @Flag(help: "Make the category when no category has this name yet.") var create = false

    func validate() throws {
      guard CategoryKind(rawValue: kind) != nil else {
        throw ValidationError(
          "kind must be 'expense', 'income' or 'transfer', not '\(TerminalText.sanitize(kind))'")
      }
    }

    func run() throws {
      let service = try database.writing()
      if create { try CategoryHint.warn(service, category: name, action: "Making") }
      let created = try service.setCategoryKind(name, kind: CategoryKind(rawValue: kind) ?? .expense, create: create)
      let article = kind == "expense" || kind == "income" ? "an" : "a"
      let clean = TerminalText.sanitize(name)
      print("\(clean) is now \(article) \(kind) category\(created ? " (a new category)" : "")")
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove a category that no expense, budget or rule uses any more.",
      discussion: "Example: expenses categories remove Dinning")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Category name.") var name: String

    func run() throws {
      try database.writing().removeCategory(name)
      print("Removed category \(TerminalText.sanitize(name))")
    }
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses accounts` and `expenses accounts rename NAME NEW`: the accounts the rows name, and
/// one name for an account whose files name it differently.
struct AccountsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accounts",
    abstract: "List the accounts your rows name, or rename one.",
    discussion: """
      An OFX names its account by the number's last four digits ('Card …8812'); a CSV by its account column or --account. 'accounts rename' gives every row of an account one name, and later imports of files that name it the old way store the new name, so one card's OFX, QIF and CSV files are one account. Files imported before are still recognised: the rows' identity keeps what the file said.

      Examples:
        expenses accounts
        expenses accounts rename 8812 Visa
      """,
    subcommands: [List.self, Rename.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the accounts, with their rows and dates.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let accounts = try database.reading().accounts()
      if format == .json {
        return try Console.line(try SafeJSON.list(accounts))
      }
      if accounts.isEmpty {
        return try Console.out(FittedText.fit("No row names an account.", width: layout.resolved))
      }
      let rows = accounts.map { account in
        [
          account.name, String(account.rows),
          account.firstDate == account.lastDate
            ? "\(account.firstDate)" : "\(account.firstDate) to \(account.lastDate)",
        ]
      }
      let table = ColumnTable(header: ["account", "rows", "dates"], rows: rows)
      try Console.out(table.render(width: layout.resolved, maxCell: .max))
    }
  }

  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rename",
      abstract: "Give an account a new name, on every row and in later imports, in one transaction.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The account: its name, or the end of exactly one account's name (8812).") var name: String
    @Argument(help: "Its new name.") var newName: String

    func validate() throws {
      if newName.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the new name is empty") }
    }

    func run() throws {
      let (account, rows) = try database.writing().renameAccount(name, to: newName)
      let clean = TerminalText.sanitize
      try Console.line(
        "Renamed '\(clean(account))' to '\(clean(newName.trimmingCharacters(in: .whitespaces)))': \(rows) row\(rows == 1 ? "" : "s")"
      )
    }
  }
}

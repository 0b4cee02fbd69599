import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore

/// `expenses ledger create|list`: the households' books one database holds.
struct LedgerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ledger",
    abstract: "Create or list ledgers (one household's books each).",
    discussion: """
      Every database has the ledger 'default'; commands act on it unless given --ledger NAME \
      (or $EXPENSES_LEDGER). A new ledger is empty and owned by the user 'local' (you, at this \
      terminal); add people with 'expenses user add'. With SQLite each ledger but 'default' is a \
      file of its own beside the database (expenses.ledgers/NAME.sqlite).

      Examples:
        expenses ledger create family
        expenses --ledger family import statement.csv
        expenses ledger list
      """,
    subcommands: [Create.self, List.self])

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Make an empty ledger.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Argument(help: "Its name: letters, digits, '.', '_' or '-'.") var name: String

    func run() throws {
      try database.writing().createLedger(name)
      try Console.out(FittedText.fit("created ledger \(TerminalText.sanitize(name))\n", width: layout.resolved))
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the ledgers and their owners.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let service = try database.reading()
      let members = try service.members()
      let rows = try service.ledgers().map { ledger in
        let here = members.filter { $0.ledger == ledger }
        let owners = here.filter { $0.role == .owner }.map(\.user).joined(separator: ", ")
        return [ledger, owners, String(here.count)]
      }
      let table = ColumnTable(header: ["ledger", "owners", "members"], rows: rows)
      try Console.out(table.render(width: layout.resolved, maxCell: .max))
    }
  }
}

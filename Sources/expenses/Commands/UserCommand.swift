import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore

/// `expenses user add|remove|list`: who may reach which ledger, and how.
struct UserCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "user",
    abstract: "Add users to ledgers with a role, take them out, list them.",
    discussion: """
      A role is owner, write or read. A user reaches the HTTP API through tokens made for them \
      ('expenses token create NAME --user USER'), which never do more than the role allows; \
      taking a user out of a ledger refuses their tokens there from the next request on. Each \
      user folds the report's sections their own way. The user 'local' is you at this terminal.

      Examples:
        expenses user add alex --ledger family --role write
        expenses user add kim --ledger family --role read
        expenses user remove kim --ledger family
        expenses user list
      """,
    subcommands: [Add.self, Remove.self, List.self])

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add", abstract: "Add a user to a ledger (made when new), or change their role there.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Argument(help: "The user's name: letters, digits, '.', '_' or '-'.") var name: String
    @Option(help: "owner, write or read.") var role: String

    func validate() throws {
      guard LedgerRole(rawValue: role) != nil else {
        throw ValidationError("--role must be 'owner', 'write' or 'read', not '\(role)'")
      }
      guard DirectoryName.isValid(name) else {
        throw ValidationError(StoreError.invalidName(kind: "user", name: name).description)
      }
    }

    func run() throws {
      let ledger = database.resolvedLedger ?? DirectoryName.defaultLedger
      try database.writing().addMember(user: name, ledger: ledger, role: LedgerRole(rawValue: role) ?? .read)
      try Console.out(
        FittedText.fit(
          "\(TerminalText.sanitize(name)) has the role \(role) in ledger \(TerminalText.sanitize(ledger))\n",
          width: layout.resolved))
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Take a user out of a ledger (their tokens there stop working).")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions
    @Argument(help: "The user's name.") var name: String

    func run() throws {
      let ledger = database.resolvedLedger ?? DirectoryName.defaultLedger
      try database.writing().removeMember(user: name, ledger: ledger)
      try Console.out(
        FittedText.fit(
          "\(TerminalText.sanitize(name)) is no longer in ledger \(TerminalText.sanitize(ledger))\n",
          width: layout.resolved))
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List users with their role in each ledger.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let rows = try database.reading().members().map { [$0.user, $0.ledger, $0.role.rawValue, $0.since] }
      let table = ColumnTable(header: ["user", "ledger", "role", "since"], rows: rows)
      try Console.out(table.render(width: layout.resolved, maxCell: .max))
    }
  }
}

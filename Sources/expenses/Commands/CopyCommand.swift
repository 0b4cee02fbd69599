import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStores
import Foundation

/// `expenses copy --from SOURCE --to TARGET [--ledger NAME]`: one ledger, exactly, between a
/// SQLite file and a PostgreSQL database.
struct CopyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "copy",
    abstract: "Copy a ledger exactly between a SQLite file and a PostgreSQL database.",
    discussion: """
      Copies every expense (its id, key, category provenance and source line), the split \
      transactions, budgets, category kinds, rules (with their ids), section states, settings, \
      import profiles, import records and API tokens (their hashes): the reports, lists and \
      exports of both ends are the same bytes, and re-importing a file finds every row a \
      duplicate. The copy is one transaction on the target: all of it or nothing.
      A PostgreSQL target ledger is created when missing and refused when it holds data. A \
      SQLite target must be a new file: an existing path (a file, a folder, anything) is never \
      replaced.
      Examples:
        expenses copy --from ~/expenses.sqlite --to 'postgres://me@/books?host=/run/postgresql'
        expenses copy --from 'postgres://me@db.example/books' --ledger home --to ~/home.sqlite
      """)

  @Option(help: "The database to copy from: a SQLite file or a postgres:// URL.") var from: String
  @Option(help: "The database to copy into: a new SQLite file or a postgres:// URL.") var to: String
  @Option(help: "The ledger on the PostgreSQL side (default: the URL's ledger= parameter, else 'default').")
  var ledger: String?

  func run() throws {
    let copied = try ExpenseService.copyLedger(from: from, to: to, ledger: ledger, stores: Stores())
    func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
    try Console.line(
      "Copied \(count(copied.expenses, "expense")), \(count(copied.budgets, "budget")), "
        + "\(count(copied.rules, "rule")), \(count(copied.imports, "import")) and \(count(copied.tokens, "token")) "
        + "from \(TerminalText.sanitize(copied.source)) to \(TerminalText.sanitize(copied.target))")
  }
}

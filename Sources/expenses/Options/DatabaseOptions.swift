import ArgumentParser
import ExpenseStore
import Foundation

/// `--db PATH`, shared by every command that touches the database.
struct DatabaseOptions: ParsableArguments {
  @Option(
    name: .customLong("db"),
    help: "The SQLite database file (default: $EXPENSES_DB, else $XDG_DATA_HOME/expenses/expenses.sqlite).")
  var path: String?

  /// The path in force: --db (after or before the subcommand), $EXPENSES_DB, XDG, ~/.local/share.
  var resolvedPath: String {
    if let path { return path }
    if let path = GlobalArguments.leadingDatabase { return path }
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["EXPENSES_DB"], !path.isEmpty { return path }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      return data + "/expenses/expenses.sqlite"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/share/expenses/expenses.sqlite"
  }

  func open() throws -> AppDatabase { try AppDatabase(path: resolvedPath) }
}

import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStores

/// `expenses restore FILE`: replaces the database with a backup, after checking the backup.
struct RestoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Replace the database with a backup made by 'expenses backup'.",
    discussion: """
      FILE must pass SQLite's integrity check, be an expenses database, and have a schema this \
      version reads; the current database may be damaged (what 'expenses check' reports). It is \
      kept as DATABASE.before-restore (refused if that file exists, unless --force), then \
      replaced in one transaction: a running report sees the old data or the new, never a mix.
      Example:
        expenses restore ~/expenses-2026-11-22.sqlite
      """)

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The backup file to restore.") var file: String
  @Flag(help: "Replace an existing DATABASE.before-restore.") var force = false

  func validate() throws {
    if let ledger = database.resolvedLedger, ledger != "default" {
      throw ValidationError(
        "restore replaces a database file; a ledger other than 'default' is a file of its own: name it with --db")
    }
  }

  func run() throws {
    let result = try ExpenseService.restore(
      databaseAt: database.resolvedPath, from: file, force: force, wait: database.wait, stores: Stores())
    let count = result.expenseCount
    var line = "Restored \(count) expense\(count == 1 ? "" : "s") from \(TerminalText.sanitize(file))"
    if result.keptPrevious { line += "; the previous database is in \(TerminalText.sanitize(result.previousPath))" }
    try Console.line(line)
    if result.replacedFile {
      try Console.line(
        "The previous database was too damaged to restore in place; a running 'expenses serve' must be restarted.")
    }
  }
}

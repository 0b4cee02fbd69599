import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses backup FILE [--force]`: a consistent copy of the database, taken while other
/// processes read and write it.
struct BackupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Write a consistent copy of the database to FILE (mode 0600).",
    discussion: """
      The copy is a snapshot (SQLite's VACUUM INTO) taken without stopping an import that is \
      running; it is written beside FILE and renamed, so FILE is either the old file or the whole \
      copy. An existing FILE is kept unless --force. Restore it with 'expenses restore FILE'.
      Example:
        expenses backup ~/expenses-2026-11-22.sqlite
      """)

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "Where to write the copy.") var file: String
  @Flag(help: "Replace FILE if it exists.") var force = false

  func run() throws {
    let count = try database.reading().backup(to: file, force: force)
    try Console.line("Backed up \(count) expense\(count == 1 ? "" : "s") to \(TerminalText.sanitize(file))")
  }
}

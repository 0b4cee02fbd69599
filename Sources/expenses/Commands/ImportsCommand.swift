import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses imports` and `expenses imports remove ID`: what each import added, and taking it
/// back.
struct ImportsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "imports",
    abstract: "List imports, or remove exactly the rows one import added.",
    discussion: """
      Each import that added rows is recorded with the ids it added, so 'imports remove' takes out exactly those rows (including ones edited since) in one transaction. Imports made before the database's schema 3 (the version that added this) have no record; delete their rows with 'expenses delete'.

      Examples:
        expenses imports
        expenses imports --format json
        expenses imports remove 3
      """,
    subcommands: [List.self, Remove.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List recorded imports, oldest first.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let records = try database.reading().imports()
      if format == .json {
        let rows = records.map(ImportRecordResource.init)
        try Console.line(try SafeJSON.list(rows))
        return
      }
      if records.isEmpty {
        let text = "No imports recorded. (Imports made before schema 3 are not recorded.)"
        return try Console.out(FittedText.fit(text, width: layout.resolved))
      }
      let rows = records.map { record in
        let when =
          record.importedAt.map {
            $0.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
          } ?? "unknown time"
        let span =
          record.firstDate == record.lastDate ? "\(record.firstDate)" : "\(record.firstDate) to \(record.lastDate)"
        return [String(record.id), record.file, when, "\(record.rows) row\(record.rows == 1 ? "" : "s") added", span]
      }
      let table = ColumnTable(header: ["id", "file", "imported", "added", "dates"], rows: rows)
      try Console.out(table.render(width: layout.resolved, maxCell: .max))
    }
  }

  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove the rows one import added (see 'expenses imports'), in one transaction.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Import id.") var id: Int64
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let (removed, handEdited) = try database.writing().removeImportNoting(id: id)
      var text = "Removed import \(id): \(removed) row\(removed == 1 ? "" : "s") deleted"
      if !handEdited.isEmpty {
        let ids = handEdited.prefix(10).map(String.init).joined(separator: " ")
        text +=
          "\n\(handEdited.count) of them had been edited by hand (\(ids)\(handEdited.count > 10 ? " …" : ""));"
          + " 'expenses undo' brings the import back with them"
      }
      try Console.out(FittedText.fit(text, width: layout.resolved))
    }
  }
}

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
    static let configuration = CommandConfiguration(abstract: "List recorded imports, oldest first.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    /// The `imports --format json` contract: id, file, importedAt (ISO 8601 UTC or null), rows
    /// (added), firstDate and lastDate (YYYY-MM-DD), plus firstId and lastId.
    struct Row: Encodable {
      var id: Int64
      var file: String
      var importedAt: String?
      var rows: Int
      var firstDate: String
      var lastDate: String
      var firstId: Int64
      var lastId: Int64

      enum CodingKeys: String, CodingKey { case id, file, importedAt, rows, firstDate, lastDate, firstId, lastId }

      func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(file, forKey: .file)
        try c.encode(importedAt, forKey: .importedAt)  // null, not absent, when unknown
        try c.encode(rows, forKey: .rows)
        try c.encode(firstDate, forKey: .firstDate)
        try c.encode(lastDate, forKey: .lastDate)
        try c.encode(firstId, forKey: .firstId)
        try c.encode(lastId, forKey: .lastId)
      }
    }

    func run() throws {
      let records = try database.reading().imports()
      if format == .json {
        let rows = records.map {
          Row(
            id: $0.id, file: $0.file, importedAt: $0.importedAt, rows: $0.rows, firstDate: $0.firstDate.description,
            lastDate: $0.lastDate.description, firstId: $0.firstId, lastId: $0.lastId)
        }
        try Console.line(rows.isEmpty ? "[]" : try SafeJSON.text(rows))
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
      abstract: "Remove the rows one import added (see 'expenses imports'), in one transaction.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "Import id.") var id: Int64

    func run() throws {
      let removed = try database.writing().removeImport(id: id)
      try Console.line("Removed import \(id): \(removed) row\(removed == 1 ? "" : "s") deleted")
    }
  }
}

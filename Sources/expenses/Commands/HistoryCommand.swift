import ArgumentParser
import ExpenseRender
import ExpenseService

/// `expenses history`: the numbered changes of the ledger, newest first, with who made each.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "List the changes made to the ledger, newest first; 'expenses undo' reverses one.",
    discussion: """
      Every change of the data is numbered and kept: add, edit, delete, import, imports remove, rules apply, budget set, budget remove, budget move, budget moves remove, goal add, goal remove, a category's kind or removal, rules add and remove, transfers unpair, accounts rename, a balance kept by reconcile and a row filed in browse or the web page (section states and display settings are not data and are not kept). The history keeps the newest 1,000 changes holding at most 200,000 rows in all; one change of more than 50,000 rows is listed but cannot be undone.

      Examples:
        expenses history
        expenses history --limit 5
        expenses history --format json
      """)
  @OptionGroup var database: DatabaseOptions
  @Option(help: "Show at most this many changes.") var limit: Int?
  @Option(help: "Output: text or json.") var format: SummaryFormat = .text
  @OptionGroup var layout: WidthOptions

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit takes 1 or more") }
  }

  func run() throws {
    let changes = try database.reading().history(limit: limit)
    if format == .json { return try Console.line(try SafeJSON.list(changes)) }
    if changes.isEmpty {
      return try Console.out(FittedText.fit("No changes recorded yet.", width: layout.resolved))
    }
    let lines = changes.map { change in
      let state =
        change.undoneBy.map { " (undone by #\($0))" } ?? (change.undoable ? "" : " (cannot be undone)")
      let when = change.at.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
      return "#\(change.id) \(change.summary)\(state)\n    \(when) by \(change.by)"
    }
    try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
  }
}

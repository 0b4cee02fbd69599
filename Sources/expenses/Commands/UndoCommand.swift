import ArgumentParser
import ExpenseRender
import ExpenseService

/// `expenses undo [N]`: reverses one change of the history and says what it changed back.
struct UndoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "undo",
    abstract: "Undo the last change, or change N of 'expenses history'.",
    discussion: """
      The undo is one transaction and a change of its own, so undoing it makes the change again. A change whose rows (or budget, kind, move or goal) were changed since is refused, naming them, and nothing is changed: undo the later changes first. Tokens, users, roles and ledgers are never undone.

      Examples:
        expenses undo
        expenses undo 57
      """)
  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The change's number (default: the last change not undone).") var change: Int64?
  @Option(help: "Output: text or json.") var format: SummaryFormat = .text
  @OptionGroup var layout: WidthOptions

  func run() throws {
    let result = try database.writing().undo(change)
    if format == .json { return try Console.line(try SafeJSON.text(result)) }
    let lines =
      ["Undid #\(result.undone.id) \(result.undone.summary) (as change #\(result.change.id))"]
      + result.changedBack.map { "  \($0)" }
    try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
  }
}

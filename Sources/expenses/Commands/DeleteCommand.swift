import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore

/// `expenses delete ID...`: takes rows out, all or none.
struct DeleteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete",
    abstract: "Delete expenses by id (see 'expenses list'), all or none.",
    discussion: """
      If any id is unknown nothing is deleted and the command exits with 64 (usage), naming the unknown ids. The monthly totals follow in the same transaction.

      The parts of a split transaction (a QIF record shared among categories) are deleted together: name them all, or give --whole-split; one part alone is refused (exit 64) naming every part, so the books never disagree with the bank's amount.

      Examples:
        expenses delete 42
        expenses delete 42 43 57
        expenses delete 42 --whole-split
      """)

  @OptionGroup var database: DatabaseOptions
  @Argument(help: "Ids of the expenses to delete.") var ids: [Int64]
  @Flag(help: "Also delete the other parts of a split transaction an id is part of.") var wholeSplit = false

  func validate() throws {
    if ids.isEmpty { throw ValidationError("give at least one id; 'expenses list' shows them") }
  }

  func run() throws {
    let deleted = try database.writing().deleteExpenses(ids: ids, wholeSplits: wholeSplit)
    for expense in deleted {
      try Console.line(
        "Deleted #\(expense.id ?? 0): \(expense.date) \(expense.amount.formatted) "
          + TerminalText.sanitize(expense.description))
    }
  }
}

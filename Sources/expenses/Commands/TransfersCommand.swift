import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses transfers` and `expenses transfers unpair ID`: the rows the imports matched as
/// one move between the user's own accounts, and undoing a wrong match.
struct TransfersCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transfers",
    abstract: "List the rows matched as transfers between your own accounts, or undo a match.",
    discussion: """
      An import matches money out of one account with the same amount into another account within 4 days (one to one, worded as a payment or a transfer on one side) and files both rows under Transfers, which is neither spending nor income. 'transfers unpair ID' gives both rows back the categories they had.

      Examples:
        expenses transfers
        expenses transfers unpair 12
      """,
    subcommands: [List.self, Unpair.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the transfer pairs, oldest first.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let pairs = try database.reading().transferPairs()
      if format == .json {
        let rows = pairs.map(TransferPairResource.init)
        return try Console.line(try SafeJSON.list(rows))
      }
      if pairs.isEmpty {
        return try Console.out(FittedText.fit("No transfer pairs.", width: layout.resolved))
      }
      /// A row as "TEXT · ACCOUNT" (the account when it names one), or "(deleted)".
      func side(_ expense: Expense?) -> String {
        guard let expense else { return "(deleted)" }
        return expense.description + (expense.account.map { " · \($0)" } ?? "")
      }
      let rows = pairs.map { view in
        [
          "\(view.pair.outId) \u{2194} \(view.pair.inId)", view.out?.date.description ?? "",
          view.into?.amount.formatted ?? view.out.map {
            Money(minor: 0 &- $0.amount.minor, currency: $0.amount.currency).formatted
          } ?? "",
          side(view.out), side(view.into),
        ]
      }
      let table = ColumnTable(header: ["ids", "date", "amount", "out of", "into"], rows: rows)
      try Console.out(table.render(width: layout.resolved, maxCell: 40))
    }
  }

  struct Unpair: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unpair",
      abstract: "Undo the transfer pair an expense is one side of: both rows get their categories back.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The id of either row of the pair (see 'expenses transfers').") var id: Int64

    func run() throws {
      let pair = try database.writing().unpairTransfer(id: id)
      try Console.line("Unpaired #\(pair.outId) and #\(pair.inId): each has its category from before")
    }
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore

/// `expenses export`: the expenses and budgets as a plain-text accounting journal.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write expenses and budgets as a Ledger/hledger journal or a beancount file.",
    discussion: """
      Each expense is a transaction: expenses:CATEGORY (income:CATEGORY for an income \
      category, assets:Transfers:CATEGORY for a transfer; money out without a category \
      expenses:Uncategorized, money in without one income:Unsorted) against assets:ACCOUNT \
      (assets:Bank when the row has no account). Names are made valid for the format. Amounts \
      are exact, in each currency's ISO digits. Budgets are monthly periodic transactions \
      (Ledger '~ monthly') or Fava 'custom "budget"' entries.

      Examples:
        expenses export --format ledger -o ~/books/expenses.journal
        hledger -f ~/books/expenses.journal bal -M expenses
        expenses export --format beancount --month 2026-10 > october.beancount
        expenses export --format ledger --from 2026-01-01 --to 2026-06-30
      """)

  @OptionGroup var database: DatabaseOptions
  @Option(help: "ledger (also read by hledger) or beancount.") var format: ExportFormat
  @Option(help: "Only this month, YYYY-MM.") var month: String?
  @Option(help: "Only from this date, YYYY-MM-DD.") var from: String?
  @Option(help: "Only up to this date (included), YYYY-MM-DD.") var to: String?
  @Option(name: [.short, .customLong("output")], help: "Write to this file instead of stdout.") var output: String?
  @Flag(help: "Replace the --output file if it exists.") var force = false

  func validate() throws {
    if month != nil && (from != nil || to != nil) {
      throw ValidationError("give --month or --from/--to, not both")
    }
    let (first, last) = try period()
    if let first, let last, last < first { throw ValidationError("--to \(last) is before --from \(first)") }
  }

  /// The first and last day exported (either open).
  func period() throws -> (CivilDate?, CivilDate?) {
    if let month {
      let m = try DateArgument.month(month)
      return (m.firstDay, m.lastDay)
    }
    return (try from.map(DateArgument.date), try to.map(DateArgument.date))
  }

  func run() throws {
    let service = try database.reading()
    let (first, last) = try period()
    guard let output else {
      var out = Console.outputBuffer()
      try service.writeJournal(format.journal, from: first, through: last, into: &out)
      try out.flush()
      return
    }
    let file = try service.outputFile(path: output, force: force)
    do {
      // Streamed into the temporary file, which `commit` puts in place only when all went well.
      var out = OutputBuffer { bytes in try file.write(bytes: bytes) }
      try service.writeJournal(format.journal, from: first, through: last, into: &out)
      try out.flush()
    } catch {
      file.discard()
      throw error
    }
    try file.commit()
  }
}

/// The journal formats of `export`.
enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
  case ledger, beancount

  var journal: ExpenseService.ExportFormat {
    switch self {
    case .ledger: return .ledger
    case .beancount: return .beancount
    }
  }
}

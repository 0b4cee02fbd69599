import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses accounts` and `expenses accounts rename NAME NEW`: the accounts the rows name, and
/// one name for an account whose files name it differently.
struct AccountsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accounts",
    abstract: "List the accounts your rows name, with their balance against the bank, or rename one.",
    discussion: """
      An OFX names its account by the number's last four digits ('Card …8812'); a CSV by its account column or --account. 'accounts rename' gives every row of an account one name, and later imports of files that name it the old way store the new name, so one card's OFX, QIF and CSV files are one account. Files imported before are still recognised: the rows' identity keeps what the file said.

      The balances a statement states (OFX LEDGERBAL, CAMT.053 Bal, MT940 :60F:/:62F:) are stored with its rows, and each account's rows are checked against every one of them: 'matches the bank on 2026-10-31', or 'off by $50.00 since 2026-10-12' with the first row after the last balance that agrees. 'expenses reconcile' checks a balance you type.

      Examples:
        expenses accounts
        expenses accounts rename 8812 Visa
      """,
    subcommands: [List.self, Rename.self],
    defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the accounts, with their rows, dates and balance against the bank.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Output: text or json.") var format: SummaryFormat = .text
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let accounts = try database.reading().accountStandings()
      if format == .json {
        return try Console.line(try SafeJSON.list(accounts))
      }
      if accounts.isEmpty {
        return try Console.out(FittedText.fit("No row names an account.", width: layout.resolved))
      }
      let anyBalance = accounts.contains { !$0.balances.isEmpty }
      var rows: [[String]] = []
      for account in accounts {
        let dates =
          account.firstDate.map { first in
            account.lastDate.map { $0 == first ? "\(first)" : "\(first) to \($0)" } ?? "\(first)"
          } ?? "—"
        let base = [account.name ?? "(no account)", String(account.rows), dates]
        guard anyBalance else {
          rows.append(base)
          continue
        }
        if account.balances.isEmpty { rows.append(base + ["—", "no balance stated"]) }
        for balance in account.balances {
          rows.append(
            base + [Money(minor: balance.balanceMinor, currency: balance.currency).formatted, balance.bankWords])
        }
      }
      let header = ["account", "rows", "dates"] + (anyBalance ? ["balance", "bank"] : [])
      var text = ColumnTable(header: header, rows: rows).render(width: layout.resolved, maxCell: .max)
      // Where to look, for each account the bank disagrees with.
      for account in accounts {
        for balance in account.balances {
          guard let row = balance.firstRowAfterMatch else { continue }
          let amount = Money(minor: row.amount.minor, currency: row.amount.currency).formatted
          let line =
            "\(account.name ?? "(no account)"): first row after \(balance.matchedOn), when it last matched: "
            + "#\(row.id.map(String.init) ?? "?") \(row.date) \(row.description) \(amount)"
          text += FittedText.fit(TerminalText.sanitize(line), width: layout.resolved)
        }
      }
      try Console.out(text)
    }
  }

  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rename",
      abstract: "Give an account a new name, on every row and in later imports, in one transaction.")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The account: its name, or the end of exactly one account's name (8812).") var name: String
    @Argument(help: "Its new name.") var newName: String

    func validate() throws {
      if newName.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the new name is empty") }
    }

    func run() throws {
      let (account, rows) = try database.writing().renameAccount(name, to: newName)
      let clean = TerminalText.sanitize
      try Console.line(
        "Renamed '\(clean(account))' to '\(clean(newName.trimmingCharacters(in: .whitespaces)))': \(rows) row\(rows == 1 ? "" : "s")"
      )
    }
  }
}

import ArgumentParser
import ExpenseCore
import ExpenseRender
import ExpenseService
import Foundation

/// `expenses reconcile ACCOUNT AMOUNT --as-of DATE`: checks a balance the user reads off the
/// bank (a statement, the app) against what the rows give that day.
struct ReconcileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reconcile",
    abstract: "Check an account's balance on a day against what its rows give.",
    discussion: """
      The rows are anchored on the earliest balance a statement stated (or an earlier reconcile). A balance that agrees is kept as confirmed, and so is the first one of an account no statement stated a balance for (it anchors the rows from then on); one that disagrees is not kept, and the first row after the last balance that agrees is named.

      Examples:
        expenses reconcile Checking 1234.56 --as-of 2026-09-30
        expenses reconcile 8812 -412.90 --as-of 2026-10-31
      """)
  @OptionGroup var database: DatabaseOptions
  @Argument(help: "The account: its name, or the end of exactly one account's name (8812).") var account: String
  @Argument(help: "The balance the bank shows, e.g. 1234.56 (negative for a card or an overdraft).")
  var amount: String
  @Option(name: .customLong("as-of"), help: "The day whose end the balance is of, YYYY-MM-DD.") var asOf: String
  @Option(help: "ISO 4217 currency (default: the database's).") var currency: String?
  @Option(help: "Output: text or json.") var format: SummaryFormat = .text
  @OptionGroup var layout: WidthOptions

  func validate() throws { _ = try DateArgument.date(asOf) }

  func run() throws {
    let result = try database.writing().reconcile(
      account: account, amount: amount, asOf: try DateArgument.date(asOf), currency: currency)
    if format == .json { return try Console.line(try SafeJSON.text(result)) }
    let money = { (minor: Int64) in Money(minor: minor, currency: result.currency).formatted }
    let name = TerminalText.sanitize(result.account)
    var lines: [String]
    if result.offByMinor == 0 {
      lines = [
        result.anchored
          ? "\(name): \(money(result.statedMinor)) on \(result.asOf) matches the rows; kept as confirmed"
          : "\(name): \(money(result.statedMinor)) on \(result.asOf) kept: no statement stated a balance before, "
            + "so the rows are checked against it from now on"
      ]
    } else {
      lines = [
        "\(name): the rows give \(money(result.fromRowsMinor)) on \(result.asOf), "
          + "off by \(money(Int64(clamping: result.offByMinor.magnitude))) from \(money(result.statedMinor)); "
          + "nothing was kept"
      ]
      if let row = result.firstRowAfterMatch {
        lines.append(
          TerminalText.sanitize(
            "First row after the last balance that agrees: #\(row.id.map(String.init) ?? "?") \(row.date) "
              + "\(row.description) \(Money(minor: row.amount.minor, currency: row.amount.currency).formatted)"))
      }
    }
    try Console.out(FittedText.fit(lines.joined(separator: "\n"), width: layout.resolved))
  }
}

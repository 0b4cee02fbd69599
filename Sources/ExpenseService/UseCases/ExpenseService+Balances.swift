import ExpenseCore
import ExpenseStore
import Foundation

/// Accounts that match the bank: every balance a statement stated (or `reconcile` confirmed)
/// checked against what the rows give (`BalanceCheck`), and a balance checked by hand.
extension ExpenseService {
  /// Every account with its rows and, in each currency its bank stated a balance in, whether
  /// the rows agree (`expenses accounts`, `GET /v1/accounts`). One consistent read.
  public func accountStandings() throws -> [AccountStanding] { try AccountStandings.of(store) }

  /// Checks a balance typed by hand (`expenses reconcile Checking 1234.56 --as-of 2026-09-30`)
  /// against what the rows give that day, anchored on the balances stated before. When they
  /// agree, or when nothing was stated yet (it becomes the anchor), it is stored as a
  /// confirmed balance of that day; when they disagree nothing is written.
  public func reconcile(account name: String, amount: String, asOf day: CivilDate, currency code: String?) throws
    -> ReconcileResult
  {
    try store.atomically {
      let account = try resolveAccount(name)
      let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
      let typed = StatementBalance(
        account: account, date: day, amount: try Money.parse(amount, currency: currency), file: "reconcile", line: 0,
        source: "reconcile")
      let stated = try StatementBalances.load(store).map(\.body.balance).filter { $0.account == account }
      let key = AccountStandings.AccountKey(account: account, currency: currency)
      let daily = try AccountStandings.dailySums(of: [account], in: store).sums[key] ?? [:]
      // The rows anchored on what the bank stated before; with nothing stated, the typed
      // balance is the anchor (and agrees by definition).
      let check = BalanceCheck(currency: currency, balances: stated, daily: daily)
      let fromRows = check.fromRows(on: day) ?? typed.amount.minor
      var result = ReconcileResult(
        account: account, asOf: day, statedMinor: typed.amount.minor, fromRowsMinor: fromRows, currency: currency,
        anchored: !check.points.isEmpty, saved: false)
      if result.offByMinor == 0 {
        if StatementBalances.new([typed], stored: stated.map { .init(balance: $0, importedAt: nil) }).count == 1 {
          // Kept as a change of the history: undo forgets the confirmed balance.
          try recording("reconcile") {
            let record = try store.addRecord(
              kind: StatementBalances.records.name,
              body: try StatementBalances.records.encoded(.init(balance: typed, importedAt: nil)))
            let summary = "reconcile \(account) \(typed.amount.formatted) on \(day)"
            return ((), summary, .effect(.records(kind: record.kind, added: [record], removed: [])))
          }
        }
        result.saved = true
      } else {
        // Where to look: the first row after the last stated balance before the day that agrees.
        if let matched = check.points.last(where: { $0.offByMinor == 0 && $0.balance.date < day })?.balance.date {
          result.firstRowAfterMatch =
            try AccountStandings.firstRows(after: [key: matched], in: store).values.first
        }
      }
      return result
    }
  }
}

/// What `reconcile` found: the balance typed, what the rows give that day, and whether it was
/// kept as a confirmed balance.
public struct ReconcileResult: Sendable, Encodable {
  public var account: String
  public var asOf: CivilDate
  public var statedMinor: Int64
  public var fromRowsMinor: Int64
  public var currency: Currency
  /// Whether a balance stated before anchored the rows (else the typed one is the anchor).
  public var anchored: Bool
  /// Whether it was stored as a confirmed balance (it agrees, or it is the first).
  public var saved: Bool
  /// When it disagrees: the first row after the last balance that agrees.
  public var firstRowAfterMatch: Expense?

  public var offByMinor: Int64 { Int64(clamping: Int128(statedMinor) - Int128(fromRowsMinor)) }
}

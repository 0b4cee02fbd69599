/// A balance a bank states for an account: what the account held at the end of `date`.
///
/// Statement formats say it outright: OFX `LEDGERBAL`, CAMT.053 `Bal` (`OPBD`, `CLBD`), MT940
/// `:60F:` and `:62F:`; a CSV with a running balance column says it after every row (the last
/// row of a day is the day's balance). An opening balance, before the day's entries, is the
/// balance at the end of the day before. Imports store them with the rows (the rows' account
/// name, after `accounts rename`), so the balance the rows give can be checked against every
/// one of them (`BalanceCheck`).
public struct StatementBalance: Hashable, Sendable, Codable {
  /// The account as its rows store it; nil when the file names none (the rows have none).
  public var account: String?
  /// The day whose end the balance is of.
  public var date: CivilDate
  public var amount: Money
  /// Where it was read: the file as stored and its 1-based line (0 when typed by hand).
  public var file: String
  public var line: Int
  /// How it was given: `OFX LEDGERBAL`, `CAMT.053 CLBD`, `MT940 :62F:`, `balance column`,
  /// `reconcile` (typed by hand).
  public var source: String

  public init(account: String?, date: CivilDate, amount: Money, file: String, line: Int, source: String) {
    self.account = account
    self.date = date
    self.amount = amount
    self.file = file
    self.line = line
    self.source = source
  }
}

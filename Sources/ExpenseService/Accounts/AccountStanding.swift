import ExpenseCore
import ExpenseRender
import ExpenseStore

/// An account as `expenses accounts` (and `GET /v1/accounts`) shows it: its rows and span, and
/// in each currency its bank stated a balance in, whether the rows agree with the bank.
public struct AccountStanding: Sendable, Encodable {
  /// The account's name (`nil`: the rows that name none, when a statement stated their balance).
  public var name: String?
  public var rows: Int
  public var firstDate: CivilDate?
  public var lastDate: CivilDate?
  public var balances: [AccountBalance]

  enum CodingKeys: String, CodingKey { case name, rows, firstDate, lastDate, balances }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(name, forKey: .name)
    try c.encode(rows, forKey: .rows)
    try c.encode(firstDate, forKey: .firstDate)
    try c.encode(lastDate, forKey: .lastDate)
    try c.encode(balances, forKey: .balances)
  }
}

/// One account's standing with its bank in one currency (`BalanceCheck`).
public struct AccountBalance: Sendable, Encodable {
  public var currency: Currency
  /// What the rows say the account holds after its last row, anchored on the earliest balance
  /// the bank stated.
  public var balanceMinor: Int64
  /// How many balances the bank stated (statements imported, `reconcile` typed).
  public var statedCount: Int
  /// The day of the latest stated balance the rows agree with.
  public var matchedOn: CivilDate
  /// When the rows disagree with a later stated balance: by how much (stated − the rows: more
  /// in the bank than the rows say is positive), from which day, and the first row dated after
  /// the last agreement (where to look); all `nil` when the rows agree with the latest one.
  public var offByMinor: Int64?
  public var offSince: CivilDate?
  public var firstRowAfterMatch: Expense?

  public var matches: Bool { offByMinor == nil }

  /// `matches the bank on 2026-10-31`, `off by $50.00 since 2026-10-12`: the words `expenses
  /// accounts` and an import's summary use.
  public var bankWords: String {
    guard let off = offByMinor, let since = offSince else { return "matches the bank on \(matchedOn)" }
    return "off by \(Money(minor: Int64(clamping: off.magnitude), currency: currency).formatted) since \(since)"
  }

  enum CodingKeys: String, CodingKey {
    case currency, balanceMinor, statedCount, matchedOn, matches, offByMinor, offSince, firstRowAfterMatch
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(currency, forKey: .currency)
    try c.encode(balanceMinor, forKey: .balanceMinor)
    try c.encode(statedCount, forKey: .statedCount)
    try c.encode(matchedOn, forKey: .matchedOn)
    try c.encode(matches, forKey: .matches)
    try c.encode(offByMinor, forKey: .offByMinor)
    try c.encode(offSince, forKey: .offSince)
    try c.encode(firstRowAfterMatch.map(ExpenseResource.init), forKey: .firstRowAfterMatch)
  }
}

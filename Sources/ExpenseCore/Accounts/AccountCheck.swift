/// One account in one currency against its bank, as the report's `accounts` section states it
/// (the fuller object, with the first row itself, is `expenses accounts --format json`'s).
public struct AccountCheck: Hashable, Sendable, Codable {
  /// The account (nil: the rows that name none).
  public var account: String?
  public var currency: Currency
  /// What the rows say the account holds after its last row.
  public var balanceMinor: Int64
  /// The day of the latest stated balance the rows agree with.
  public var matchedOn: CivilDate
  /// Stated − the rows from `offSince` on; nil when the rows agree with the latest balance.
  public var offByMinor: Int64?
  public var offSince: CivilDate?
  /// The id of the first row after the last agreement (where to look), when off.
  public var firstRowAfterMatchId: Int64?

  public init(
    account: String?, currency: Currency, balanceMinor: Int64, matchedOn: CivilDate, offByMinor: Int64? = nil,
    offSince: CivilDate? = nil, firstRowAfterMatchId: Int64? = nil
  ) {
    self.account = account
    self.currency = currency
    self.balanceMinor = balanceMinor
    self.matchedOn = matchedOn
    self.offByMinor = offByMinor
    self.offSince = offSince
    self.firstRowAfterMatchId = firstRowAfterMatchId
  }

  enum CodingKeys: String, CodingKey {
    case account, currency, balanceMinor, matchedOn, matches, offByMinor, offSince, firstRowAfterMatchId
  }

  public var matches: Bool { offByMinor == nil }

  /// Every key present (null, never absent), as the report's other objects.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(account, forKey: .account)
    try c.encode(currency, forKey: .currency)
    try c.encode(balanceMinor, forKey: .balanceMinor)
    try c.encode(matchedOn, forKey: .matchedOn)
    try c.encode(matches, forKey: .matches)
    try c.encode(offByMinor, forKey: .offByMinor)
    try c.encode(offSince, forKey: .offSince)
    try c.encode(firstRowAfterMatchId, forKey: .firstRowAfterMatchId)
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    account = try c.decodeIfPresent(String.self, forKey: .account)
    currency = try c.decode(Currency.self, forKey: .currency)
    balanceMinor = try c.decode(Int64.self, forKey: .balanceMinor)
    matchedOn = try c.decode(CivilDate.self, forKey: .matchedOn)
    offByMinor = try c.decodeIfPresent(Int64.self, forKey: .offByMinor)
    offSince = try c.decodeIfPresent(CivilDate.self, forKey: .offSince)
    firstRowAfterMatchId = try c.decodeIfPresent(Int64.self, forKey: .firstRowAfterMatchId)
  }
}

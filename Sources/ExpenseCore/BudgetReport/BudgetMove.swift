/// Budget moved from one category to another in one month (`budget move 50 "Dining out"
/// Groceries`): that month, `from`'s budget is `amountMinor` smaller and `to`'s as much larger.
/// A dated record the report shows and a user can remove; the budgets themselves stay as set.
public struct BudgetMove: Hashable, Sendable, Codable {
  /// The move's id, never given to another move.
  public var id: Int64
  public var month: Month
  public var currency: Currency
  /// Always more than zero.
  public var amountMinor: Int64
  public var from: String
  public var to: String
  /// When it was made (ISO 8601, UTC).
  public var madeAt: String

  public init(
    id: Int64, month: Month, currency: Currency, amountMinor: Int64, from: String, to: String, madeAt: String
  ) {
    self.id = id
    self.month = month
    self.currency = currency
    self.amountMinor = amountMinor
    self.from = from
    self.to = to
    self.madeAt = madeAt
  }

  /// What the moves of `month` in `currency` add to each category's budget (negative: taken).
  public static func net(_ moves: [BudgetMove], month: Month, currency: Currency) -> [String: Int64] {
    var net: [String: Int128] = [:]
    for move in moves where move.month == month && move.currency == currency {
      net[move.from, default: 0] -= Int128(move.amountMinor)
      net[move.to, default: 0] += Int128(move.amountMinor)
    }
    return net.mapValues { Rounding.clamp($0) }
  }
}

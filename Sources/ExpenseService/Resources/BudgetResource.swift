import ExpenseCore

/// The one JSON object of a budget: `budget list --format json` and the HTTP API's `Budget`
/// (which leaves out the null `month` of an every-month budget). Amounts as JSON numbers of
/// minor units.
public struct BudgetResource: Encodable, Sendable {
  public var budget: Budget
  /// The category's rollover mode in the budget's currency (every month's, whichever budget).
  public var rollover: RolloverMode
  /// How long the amount lasts: `month`, `quarter` or `year` (the category's, whichever budget).
  public var period: BudgetPeriod

  public init(_ budget: Budget, rollover: RolloverMode = .off, period: BudgetPeriod = .month) {
    self.budget = budget
    self.rollover = rollover
    self.period = period
  }

  enum CodingKeys: String, CodingKey { case category, amountMinor, currency, month, rollover, period }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(budget.category, forKey: .category)
    try c.encode(budget.amount.minor, forKey: .amountMinor)
    try c.encode(budget.amount.currency.code, forKey: .currency)
    try c.encode(budget.month?.description, forKey: .month)  // null, not absent, for every month
    try c.encode(rollover, forKey: .rollover)
    try c.encode(period, forKey: .period)
  }
}

/// One tag in a month's report (the `tags` section): what its rows cost this month, and, when
/// the tag has a budget over days that reach into the month, what its rows in those days cost
/// against it. One line per tag and currency.
public struct TagLine: Hashable, Sendable, Codable {
  public var tag: String
  public var currency: Currency
  /// The tag's rows in the report month, and what they cost (money out less money in).
  public var monthCount: Int
  public var monthSpentMinor: Int64
  /// The budget's amount and days, when it has one in this currency reaching into the month.
  public var budgetMinor: Int64?
  public var budgetFrom: CivilDate?
  public var budgetTo: CivilDate?
  /// What the tag's rows in the budget's days cost, and that as a whole percent of the budget
  /// (rounded half up).
  public var budgetSpentMinor: Int64?
  public var percentUsed: Int?

  public init(
    tag: String, currency: Currency, monthCount: Int, monthSpentMinor: Int64, budgetMinor: Int64? = nil,
    budgetFrom: CivilDate? = nil, budgetTo: CivilDate? = nil, budgetSpentMinor: Int64? = nil, percentUsed: Int? = nil
  ) {
    self.tag = tag
    self.currency = currency
    self.monthCount = monthCount
    self.monthSpentMinor = monthSpentMinor
    self.budgetMinor = budgetMinor
    self.budgetFrom = budgetFrom
    self.budgetTo = budgetTo
    self.budgetSpentMinor = budgetSpentMinor
    self.percentUsed = percentUsed
  }
}

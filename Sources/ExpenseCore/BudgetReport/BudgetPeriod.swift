/// How long one amount of a category's budget lasts (`budget set --period`): a month (the
/// default), a calendar quarter or a calendar year.
///
/// A quarterly or yearly budget is one amount for the whole period: a month's report measures
/// the period's spending so far against it (left, percent used, status, a pace prorated by day)
/// and counts only the month's share of it in the month's total, so a year's budget is never
/// counted twelve times.
public enum BudgetPeriod: String, Sendable, Codable, CaseIterable {
  case month
  case quarter
  case year

  /// How many months one period holds.
  public var monthCount: Int {
    switch self {
    case .month: 1
    case .quarter: 3
    case .year: 12
    }
  }

  /// The months of the period that contains `month`: the month itself, its calendar quarter
  /// (January–March, April–June, …) or its calendar year.
  public func months(containing month: Month) -> ClosedRange<Month> {
    let first: Month
    switch self {
    case .month: first = month
    case .quarter: first = Month(validYear: month.year, month: (month.month - 1) / 3 * 3 + 1)
    case .year: first = Month(validYear: month.year, month: 1)
    }
    return first...first.adding(months: monthCount - 1)
  }

  /// `month`'s share of a period's `amount`, prorated by day: the amount × the days through the
  /// month's end ÷ the period's days, less the same through the month before (each rounded
  /// half to even), so the shares of a period's months add up to its amount exactly.
  public func share(of amount: Int64, in month: Month) -> Int64 {
    let range = months(containing: month)
    let total = Self.days(range.lowerBound, through: range.upperBound)
    let before = month > range.lowerBound ? Self.days(range.lowerBound, through: month.previous) : 0
    let through = before + month.dayCount
    return Rounding.clamp(
      Int128(Rounding.scale(amount, by: Int64(through), over: Int64(total)))
        - Int128(Rounding.scale(amount, by: Int64(before), over: Int64(total))))
  }

  /// What should be spent of a period's `amount` by `day` (inclusive), prorated by day over
  /// the period that contains it.
  public func pace(of amount: Int64, through day: CivilDate) -> Int64 {
    let range = months(containing: day.calendarMonth)
    let total = Self.days(range.lowerBound, through: range.upperBound)
    let before =
      day.calendarMonth > range.lowerBound ? Self.days(range.lowerBound, through: day.calendarMonth.previous) : 0
    return Rounding.scale(amount, by: Int64(before + day.day), over: Int64(total))
  }

  /// The period that contains `month`, named for a sentence: `2026`, `Q4 2026`, `Nov 2026`.
  public func name(containing month: Month) -> String {
    switch self {
    case .month: "\(month.shortName) \(month.year)"
    case .quarter: "Q\((month.month - 1) / 3 + 1) \(month.year)"
    case .year: "\(month.year)"
    }
  }

  /// `yearly`, `quarterly`, `monthly`.
  public var adjective: String {
    switch self {
    case .month: "monthly"
    case .quarter: "quarterly"
    case .year: "yearly"
    }
  }

  /// The suffix of a budget's amount in a narrow cell: `/yr`, `/qtr` (nothing for a month).
  public var suffix: String {
    switch self {
    case .month: ""
    case .quarter: "/qtr"
    case .year: "/yr"
    }
  }

  /// Days from the first day of `first` through the last day of `last`.
  static func days(_ first: Month, through last: Month) -> Int {
    var days = 0
    var current = first
    while current <= last {
      days += current.dayCount
      current = current.next
    }
    return days
  }
}

/// A category's budget period in one currency, as the calculator is given it (categories not
/// listed are budgeted by the month).
public struct CategoryPeriod: Hashable, Sendable, Codable {
  public var category: String
  public var currency: Currency
  public var period: BudgetPeriod

  public init(category: String, currency: Currency, period: BudgetPeriod) {
    self.category = category
    self.currency = currency
    self.period = period
  }
}

/// One category's standing for a month: a "Category Performance vs Budget" row.
///
/// All amounts are minor units of the group's currency. Fields that do not apply are `nil` and
/// encode as JSON `null` (never omitted): a script can rely on every key being present.
public struct CategoryBenchmark: Hashable, Sendable, Codable {
  /// Category name (`Uncategorized` for transactions without one).
  public var category: String
  /// The budget in force for the month (month override, else default); `nil` when none.
  public var budgetMinor: Int64?
  /// The category's kind: always `expense` for a row of the table (income and transfers are
  /// reported apart).
  public var kind: CategoryKind
  /// Outflows − inflows in the month; negative when refunds exceed spending (a credit).
  public var spentMinor: Int64
  /// Budget − spent; negative when over; `nil` when unbudgeted.
  public var remainingMinor: Int64?
  /// Spent ÷ budget × 100 to one decimal, never below 0 (a credit uses none of the budget);
  /// `nil` when unbudgeted or the budget is zero.
  public var percentUsed: Percent?
  /// under, near, over or unbudgeted.
  public var status: BudgetStatus
  /// Mean spending of the (up to) three complete months before, counting only months since the
  /// currency's history starts; `nil` for the first month of history.
  public var trailingAverageMinor: Int64?
  /// How many months `trailingAverageMinor` is the mean of (1–3); `nil` when there is none.
  public var averageMonths: Int?
  /// (spent − average) ÷ average × 100; `nil` without an average, when it is zero, or for a
  /// month after today.
  public var changeFromAveragePercent: Percent?
  /// What should be spent by today: budget × the share of a month's spending the category
  /// usually has done by this day (`projectionBasis`), when the month contains today and
  /// there is a budget.
  public var paceMinor: Int64?
  /// Spent so far + what the category usually spends in the rest of the month (or, without
  /// history, spent ÷ elapsed days × days in month); never below spent. Only when the month
  /// contains today.
  public var projectedMinor: Int64?
  /// Where pace and projection come from: the category's own history, or linear in the days;
  /// `nil` when there is no projection.
  public var projectionBasis: ProjectionBasis?
  /// Number of transactions in the month.
  public var transactionCount: Int
  /// True when the category is not over its budget yet but what it spent by today is well
  /// ahead of its pace (`StatusThresholds.isAheadOfPace`); false when there is no pace.
  public var aheadOfPace: Bool = false
  /// Under rollover (`budget set --rollover`): what came in from the months before (negative:
  /// overspending taken from this month); `nil` without rollover.
  public var carriedInMinor: Int64?
  /// Under rollover: budget + carried in − spent, what `remainingMinor` then is; `nil` without.
  public var availableMinor: Int64?
  /// Under rollover: the months the carry came through, oldest first; `nil` without.
  public var carriedFromMonths: [Month]?
  /// Budget moved to the category this month less budget moved from it (`budget move`),
  /// already counted in `budgetMinor`; `nil` when nothing was moved.
  public var movedMinor: Int64?
  /// How long the budget's amount lasts (`budget set --period`): `month`, `quarter` or `year`;
  /// `nil` without a budget. For a quarter or a year, `budgetMinor` is the period's amount and
  /// `remainingMinor`, `percentUsed`, `status` and `paceMinor` measure the period's spending so
  /// far (`periodSpentMinor`) against it, while `spentMinor` stays the month's.
  public var period: BudgetPeriod?
  /// For a quarterly or yearly budget: the period's first and last months; `nil` otherwise.
  public var periodFrom: Month?
  public var periodThrough: Month?
  /// For a quarterly or yearly budget: what was spent from the period's first month through
  /// this one; `nil` otherwise.
  public var periodSpentMinor: Int64?
  /// For a quarterly or yearly budget: this month's share of it, prorated by day (the shares
  /// of a period's months add up to its amount), which is what the month's total budget
  /// counts; `nil` otherwise.
  public var monthShareMinor: Int64?

  public init(
    category: String, budgetMinor: Int64?, spentMinor: Int64, remainingMinor: Int64?,
    percentUsed: Percent?, status: BudgetStatus, trailingAverageMinor: Int64?,
    changeFromAveragePercent: Percent?, paceMinor: Int64?, projectedMinor: Int64?,
    transactionCount: Int, kind: CategoryKind = .expense, averageMonths: Int? = nil,
    projectionBasis: ProjectionBasis? = nil
  ) {
    self.category = category
    self.kind = kind
    self.averageMonths = averageMonths
    self.projectionBasis = projectionBasis
    self.budgetMinor = budgetMinor
    self.spentMinor = spentMinor
    self.remainingMinor = remainingMinor
    self.percentUsed = percentUsed
    self.status = status
    self.trailingAverageMinor = trailingAverageMinor
    self.changeFromAveragePercent = changeFromAveragePercent
    self.paceMinor = paceMinor
    self.projectedMinor = projectedMinor
    self.transactionCount = transactionCount
  }

  enum CodingKeys: String, CodingKey {
    case category, budgetMinor, spentMinor, remainingMinor, percentUsed, status
    case trailingAverageMinor, changeFromAveragePercent, paceMinor, projectedMinor, transactionCount
    case kind, averageMonths, projectionBasis, aheadOfPace
    case carriedInMinor, availableMinor, carriedFromMonths, movedMinor
    case period, periodFrom, periodThrough, periodSpentMinor, monthShareMinor
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(category, forKey: .category)
    try c.encode(budgetMinor, forKey: .budgetMinor)
    try c.encode(spentMinor, forKey: .spentMinor)
    try c.encode(remainingMinor, forKey: .remainingMinor)
    try c.encode(percentUsed, forKey: .percentUsed)
    try c.encode(status, forKey: .status)
    try c.encode(trailingAverageMinor, forKey: .trailingAverageMinor)
    try c.encode(changeFromAveragePercent, forKey: .changeFromAveragePercent)
    try c.encode(paceMinor, forKey: .paceMinor)
    try c.encode(projectedMinor, forKey: .projectedMinor)
    try c.encode(transactionCount, forKey: .transactionCount)
    try c.encode(kind, forKey: .kind)
    try c.encode(averageMonths, forKey: .averageMonths)
    try c.encode(projectionBasis, forKey: .projectionBasis)
    try c.encode(aheadOfPace, forKey: .aheadOfPace)
    try c.encode(carriedInMinor, forKey: .carriedInMinor)
    try c.encode(availableMinor, forKey: .availableMinor)
    try c.encode(carriedFromMonths, forKey: .carriedFromMonths)
    try c.encode(movedMinor, forKey: .movedMinor)
    try c.encode(period, forKey: .period)
    try c.encode(periodFrom, forKey: .periodFrom)
    try c.encode(periodThrough, forKey: .periodThrough)
    try c.encode(periodSpentMinor, forKey: .periodSpentMinor)
    try c.encode(monthShareMinor, forKey: .monthShareMinor)
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    category = try c.decode(String.self, forKey: .category)
    budgetMinor = try c.decodeIfPresent(Int64.self, forKey: .budgetMinor)
    kind = try c.decodeIfPresent(CategoryKind.self, forKey: .kind) ?? .expense
    spentMinor = try c.decode(Int64.self, forKey: .spentMinor)
    remainingMinor = try c.decodeIfPresent(Int64.self, forKey: .remainingMinor)
    percentUsed = try c.decodeIfPresent(Percent.self, forKey: .percentUsed)
    status = try c.decode(BudgetStatus.self, forKey: .status)
    trailingAverageMinor = try c.decodeIfPresent(Int64.self, forKey: .trailingAverageMinor)
    averageMonths = try c.decodeIfPresent(Int.self, forKey: .averageMonths)
    changeFromAveragePercent = try c.decodeIfPresent(Percent.self, forKey: .changeFromAveragePercent)
    paceMinor = try c.decodeIfPresent(Int64.self, forKey: .paceMinor)
    projectedMinor = try c.decodeIfPresent(Int64.self, forKey: .projectedMinor)
    projectionBasis = try c.decodeIfPresent(ProjectionBasis.self, forKey: .projectionBasis)
    transactionCount = try c.decode(Int.self, forKey: .transactionCount)
    aheadOfPace = try c.decodeIfPresent(Bool.self, forKey: .aheadOfPace) ?? false
    carriedInMinor = try c.decodeIfPresent(Int64.self, forKey: .carriedInMinor)
    availableMinor = try c.decodeIfPresent(Int64.self, forKey: .availableMinor)
    carriedFromMonths = try c.decodeIfPresent([Month].self, forKey: .carriedFromMonths)
    movedMinor = try c.decodeIfPresent(Int64.self, forKey: .movedMinor)
    period = try c.decodeIfPresent(BudgetPeriod.self, forKey: .period)
    periodFrom = try c.decodeIfPresent(Month.self, forKey: .periodFrom)
    periodThrough = try c.decodeIfPresent(Month.self, forKey: .periodThrough)
    periodSpentMinor = try c.decodeIfPresent(Int64.self, forKey: .periodSpentMinor)
    monthShareMinor = try c.decodeIfPresent(Int64.self, forKey: .monthShareMinor)
  }
}

/// Where a category's pace and projection come from.
public enum ProjectionBasis: String, Hashable, Sendable, Codable {
  /// The category's own trailing months: the share of a month's spending usually done by day d.
  case history
  /// No usable history: spending is assumed to be spread evenly over the days.
  case linear
  /// No usable history and money out on too few days so far to tell a rate from a one-off
  /// (rent paid on the 1st of a first month): the projection is what is spent, nothing added.
  case recorded
}

/// The totals row of one currency group, plus the status counts a collapsed header shows.
public struct BenchmarkTotals: Hashable, Sendable, Codable {
  /// The same measures as a category row, over all spending categories of the group.
  /// `budgetMinor` is the sum of the budgets; `spentMinor` includes unbudgeted spending, but
  /// `remainingMinor`, `percentUsed` and `status` compare the budget with `budgetedSpentMinor`
  /// only (like with like).
  public var row: CategoryBenchmark
  public var overCount: Int
  public var nearCount: Int
  public var underCount: Int
  public var unbudgetedCount: Int
  /// What the categories with a budget spent: the side of the budget comparison.
  public var budgetedSpentMinor: Int64 = 0
  /// What the categories without a budget spent, stated beside the budget, never in it.
  public var unbudgetedSpentMinor: Int64 = 0
  /// How many categories are ahead of pace (`CategoryBenchmark.aheadOfPace`).
  public var aheadCount = 0

  public init(row: CategoryBenchmark, overCount: Int, nearCount: Int, underCount: Int, unbudgetedCount: Int) {
    self.row = row
    self.overCount = overCount
    self.nearCount = nearCount
    self.underCount = underCount
    self.unbudgetedCount = unbudgetedCount
  }

  enum CodingKeys: String, CodingKey {
    case overCount, nearCount, underCount, unbudgetedCount, budgetedSpentMinor, unbudgetedSpentMinor, aheadCount
  }

  /// Flat JSON: the row's fields (`category` is "Total") followed by the counts.
  public func encode(to encoder: any Encoder) throws {
    try row.encode(to: encoder)
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(overCount, forKey: .overCount)
    try c.encode(nearCount, forKey: .nearCount)
    try c.encode(underCount, forKey: .underCount)
    try c.encode(unbudgetedCount, forKey: .unbudgetedCount)
    try c.encode(budgetedSpentMinor, forKey: .budgetedSpentMinor)
    try c.encode(unbudgetedSpentMinor, forKey: .unbudgetedSpentMinor)
    try c.encode(aheadCount, forKey: .aheadCount)
  }

  public init(from decoder: any Decoder) throws {
    row = try CategoryBenchmark(from: decoder)
    let c = try decoder.container(keyedBy: CodingKeys.self)
    overCount = try c.decode(Int.self, forKey: .overCount)
    nearCount = try c.decode(Int.self, forKey: .nearCount)
    underCount = try c.decode(Int.self, forKey: .underCount)
    unbudgetedCount = try c.decode(Int.self, forKey: .unbudgetedCount)
    budgetedSpentMinor = try c.decodeIfPresent(Int64.self, forKey: .budgetedSpentMinor) ?? 0
    unbudgetedSpentMinor = try c.decodeIfPresent(Int64.self, forKey: .unbudgetedSpentMinor) ?? 0
    aheadCount = try c.decodeIfPresent(Int.self, forKey: .aheadCount) ?? 0
  }
}

/// How a category stands against its budget.
public enum BudgetStatus: String, Sendable, Codable, CaseIterable {
  /// Spent less than the near threshold (80 % by default).
  case under
  /// Spent at least the near threshold, and no more than the budget.
  case near
  /// Spent more than the over threshold (100 % by default): over budget.
  case over
  /// No budget is set for the category.
  case unbudgeted
}

/// The percentages that separate under, near and over; configurable per report.
public struct StatusThresholds: Hashable, Sendable, Codable {
  /// From this percent of the budget a category is `near` (default 80).
  public var nearPercent: Int64
  /// Above this percent of the budget a category is `over` (default 100).
  public var overPercent: Int64

  /// A category is ahead of pace when what it spent by today exceeds its pace by more than
  /// this percent of its budget (default 10): well ahead, not a few cents early.
  public var aheadMarginPercent: Int64

  public init(nearPercent: Int64 = 80, overPercent: Int64 = 100, aheadMarginPercent: Int64 = 10) {
    self.nearPercent = nearPercent
    self.overPercent = overPercent
    self.aheadMarginPercent = aheadMarginPercent
  }

  /// Whether a category not over its budget yet is well ahead of its pace: spent by today −
  /// pace > budget × `aheadMarginPercent` %. Why: a category that will be over by the 20th
  /// should say so on the 10th, not once it is over. Never for a projection that is only what
  /// was spent (`recorded`: a one-off is no rate), nor for over or unbudgeted rows.
  public func isAheadOfPace(
    spentByToday: Int128, pace: Int64?, budget: Int64, status: BudgetStatus, basis: ProjectionBasis
  ) -> Bool {
    guard let pace, status == .under || status == .near, basis != .recorded else { return false }
    return (spentByToday - Int128(pace)) * 100 > Int128(budget) * Int128(aheadMarginPercent)
  }

  /// Status of `spent` against `budget` (nil budget: unbudgeted), compared exactly in integers.
  public func status(spent: Int64, budget: Int64?) -> BudgetStatus {
    guard let budget else { return .unbudgeted }
    let spentTimes100 = Int128(spent) * 100
    if spentTimes100 > Int128(budget) * Int128(overPercent) { return .over }
    if budget == 0 { return .under }
    if spentTimes100 >= Int128(budget) * Int128(nearPercent) { return .near }
    return .under
  }
}

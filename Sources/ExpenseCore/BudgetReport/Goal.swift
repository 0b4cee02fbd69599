/// A goal: an amount to have set aside in a category by a month (`goal add "New car" 10000
/// --by 2027-12 --category Car`). What it needs each month is never entered: it is computed
/// from what is set aside so far (`GoalProgress`), every month anew.
public struct Goal: Hashable, Sendable, Codable {
  /// Never given to another goal.
  public var id: Int64
  public var name: String
  public var category: String
  public var currency: Currency
  public var targetMinor: Int64
  /// The month the amount is wanted by (its last day).
  public var by: Month
  /// The month the goal was added: saving is measured from it.
  public var since: Month

  public init(
    id: Int64, name: String, category: String, currency: Currency, targetMinor: Int64, by: Month, since: Month
  ) {
    self.id = id
    self.name = name
    self.category = category
    self.currency = currency
    self.targetMinor = targetMinor
    self.by = by
    self.since = since
  }
}

/// Where a goal stands in a month, and what it needs from then on.
public struct GoalProgress: Hashable, Sendable, Codable {
  public enum Status: String, Hashable, Sendable, Codable {
    /// Set aside in full.
    case reached
    /// At least what saving evenly from its first month would have set aside before this month.
    case onTrack
    /// Less than that: `monthsBehind` months of even saving short.
    case behind
    /// Its month has passed and it is not reached.
    case overdue
  }

  public var goal: Goal
  /// The month this is computed for.
  public var month: Month
  /// Set aside by the end of `month`: the category's available amount under rollover, else
  /// what was spent in it (money moved toward the goal) from the goal's first month on.
  public var savedMinor: Int64
  /// What is still to set aside (never below zero).
  public var remainingMinor: Int64
  /// The months from `month` through the goal's (0 once it has passed).
  public var monthsLeft: Int
  /// What each of those months needs, rounded up to the minor unit: all of `remainingMinor`
  /// once no month is left.
  public var monthlyNeedMinor: Int64
  public var status: Status
  /// How many months of even saving the goal is short (0 unless behind).
  public var monthsBehind: Int

  /// Computes the progress of `goal` in `month` from what is set aside (`saved`).
  public init(goal: Goal, month: Month, saved: Int64) {
    self.goal = goal
    self.month = month
    savedMinor = saved
    let remaining = max(0, Int128(goal.targetMinor) - Int128(saved))
    remainingMinor = Rounding.clamp(remaining)
    monthsLeft = max(0, goal.by.index - month.index + 1)
    monthlyNeedMinor =
      monthsLeft > 0 ? Rounding.clamp((remaining + Int128(monthsLeft) - 1) / Int128(monthsLeft)) : remainingMinor
    let span = Int128(max(1, goal.by.index - goal.since.index + 1))
    let elapsed = Int128(min(max(0, month.index - goal.since.index), Int(span)))
    // What even saving would have set aside before `month` (nothing in the goal's first
    // month), and one month of it.
    let expected = Int128(goal.targetMinor) * elapsed / span
    let perMonth = max(1, Int128(goal.targetMinor) / span)
    if remaining == 0 {
      status = .reached
      monthsBehind = 0
    } else if month > goal.by {
      status = .overdue
      monthsBehind = 0
    } else if Int128(saved) >= expected {
      status = .onTrack
      monthsBehind = 0
    } else {
      status = .behind
      monthsBehind = Int(clamping: (expected - Int128(saved) + perMonth - 1) / perMonth)
    }
  }
}

extension GoalProgress {
  enum CodingKeys: String, CodingKey {
    case id, name, category, currency, targetMinor, by, since, month, savedMinor, remainingMinor, monthsLeft
    case monthlyNeedMinor, status, monthsBehind
  }

  /// Reads the flat object `encode(to:)` writes.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    goal = Goal(
      id: try c.decode(Int64.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
      category: try c.decode(String.self, forKey: .category), currency: try c.decode(Currency.self, forKey: .currency),
      targetMinor: try c.decode(Int64.self, forKey: .targetMinor), by: try c.decode(Month.self, forKey: .by),
      since: try c.decode(Month.self, forKey: .since))
    month = try c.decode(Month.self, forKey: .month)
    savedMinor = try c.decode(Int64.self, forKey: .savedMinor)
    remainingMinor = try c.decode(Int64.self, forKey: .remainingMinor)
    monthsLeft = try c.decode(Int.self, forKey: .monthsLeft)
    monthlyNeedMinor = try c.decode(Int64.self, forKey: .monthlyNeedMinor)
    status = try c.decode(Status.self, forKey: .status)
    monthsBehind = try c.decode(Int.self, forKey: .monthsBehind)
  }

  /// One flat object: the goal's fields and where it stands (`goal list --format json`, the API).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(goal.id, forKey: .id)
    try c.encode(goal.name, forKey: .name)
    try c.encode(goal.category, forKey: .category)
    try c.encode(goal.currency, forKey: .currency)
    try c.encode(goal.targetMinor, forKey: .targetMinor)
    try c.encode(goal.by, forKey: .by)
    try c.encode(goal.since, forKey: .since)
    try c.encode(month, forKey: .month)
    try c.encode(savedMinor, forKey: .savedMinor)
    try c.encode(remainingMinor, forKey: .remainingMinor)
    try c.encode(monthsLeft, forKey: .monthsLeft)
    try c.encode(monthlyNeedMinor, forKey: .monthlyNeedMinor)
    try c.encode(status, forKey: .status)
    try c.encode(monthsBehind, forKey: .monthsBehind)
  }
}

extension Month {
  /// Months since year 0, for month arithmetic.
  var index: Int { year * 12 + month - 1 }
}

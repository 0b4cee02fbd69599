/// What a category's budget carries from one month into the next (`budget set --rollover`).
public enum RolloverMode: String, Sendable, Codable, CaseIterable {
  /// Each month starts from its budget alone (the default).
  case off
  /// What is left at the end of a month is added to the next; what went over is not taken.
  case surplus
  /// What is left is added to the next month and what went over is taken from it.
  case all
}

/// A category's rollover in one currency: its mode and the first month it counts (the month it
/// was turned on). A carry is never stored: it is computed from the stored monthly totals each
/// time, so editing or deleting an old row moves every later month's carry at once.
public struct Rollover: Hashable, Sendable, Codable {
  public var category: String
  public var currency: Currency
  public var mode: RolloverMode
  /// The first month whose result is carried: its own carry in is zero.
  public var since: Month

  public init(category: String, currency: Currency, mode: RolloverMode, since: Month) {
    self.category = category
    self.currency = currency
    self.mode = mode
    self.since = since
  }
}

/// What came into a month from the months before it under rollover.
public struct Carry: Hashable, Sendable {
  /// Added to the month's budget (negative: overspending taken from it), in minor units.
  public var carriedInMinor: Int64
  /// The months the carry came through, oldest first (from `Rollover.since` to the month
  /// before); empty in the first month.
  public var months: [Month]

  public init(carriedInMinor: Int64, months: [Month]) {
    self.carriedInMinor = carriedInMinor
    self.months = months
  }
}

/// The carry arithmetic: month by month from `since`, what is available is the budget plus
/// what came in minus what was spent; `all` carries it whole, `surplus` only when it is not
/// negative. Sums are kept in 128 bits and capped once (a carry never traps).
public enum CarryCalculator {
  /// The carry into `month` for `rollover`, given the budget in force each month (nil: none,
  /// which counts as zero) and what was spent each month (outflows − refunds).
  public static func carry(
    into month: Month, rollover: Rollover, budget: (Month) -> Int64?, spent: (Month) -> Int64
  ) -> Carry {
    guard rollover.mode != .off, rollover.since < month else { return Carry(carriedInMinor: 0, months: []) }
    var carry: Int128 = 0
    var months: [Month] = []
    var current = rollover.since
    while current < month {
      let available = Int128(budget(current) ?? 0) + carry - Int128(spent(current))
      carry = rollover.mode == .all ? available : max(0, available)
      // A carry past what a month's sum can hold is capped: 2^62 minor units, as the rollup.
      carry = min(max(carry, -Int128(Int64.max / 2)), Int128(Int64.max / 2))
      months.append(current)
      current = current.adding(months: 1)
    }
    return Carry(carriedInMinor: Int64(carry), months: months)
  }
}

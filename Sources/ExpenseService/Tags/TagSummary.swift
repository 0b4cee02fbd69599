import ExpenseCore

/// A tag as `expenses tag list` and `GET /v1/tags` show it: one JSON object for both.
public struct TagSummary: Codable, Hashable, Sendable {
  public var name: String
  /// Rows with the tag.
  public var count: Int
  /// What the rows cost per currency (money out less money in: a refund lowers it).
  public var totals: [TagTotal]
  /// The rules whose matches the tag takes.
  public var rules: [Int64]
  public var budget: TagBudget?
  /// Against the budget: what the rows in its currency and days cost, and the share of the
  /// budget that is (whole percent, rounded half-even); nil without a budget.
  public var budgetSpentMinor: Int64?
  public var percentUsed: Int?
}

public struct TagTotal: Codable, Hashable, Sendable {
  public var currency: Currency
  public var spentMinor: Int64
  public var count: Int
}

/// Adds up a tag's rows as they stream by.
struct TagTally {
  var count = 0
  var spent: [Currency: (minor: Int128, count: Int)] = [:]
  var budgetSpent: Int128 = 0

  mutating func add(_ amount: Money, date: CivilDate, budget: TagBudget?) {
    count += 1
    spent[amount.currency, default: (0, 0)].minor -= Int128(amount.minor)
    spent[amount.currency, default: (0, 0)].count += 1
    if let budget, budget.currency == amount.currency, budget.from <= date, date <= budget.to {
      budgetSpent -= Int128(amount.minor)
    }
  }

  func summary(_ body: TagRecords.Body) -> TagSummary {
    let totals = spent.keys.sorted().map { currency in
      let sum = spent[currency] ?? (0, 0)
      return TagTotal(currency: currency, spentMinor: Int64(clamping: sum.minor), count: sum.count)
    }
    let used = body.budget.map { $0.percent(of: budgetSpent) }
    return TagSummary(
      name: body.name, count: count, totals: totals, rules: body.rules, budget: body.budget,
      budgetSpentMinor: body.budget.map { _ in Int64(clamping: budgetSpent) }, percentUsed: used)
  }
}

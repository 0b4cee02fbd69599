/// A budget taken from history (`budget set --from-average N`, `budget suggest`): what a
/// category spent on average over the last complete months, rounded to the currency's unit.
public struct BudgetSuggestion: Hashable, Sendable, Codable {
  public var category: String
  public var currency: Currency
  /// The average, rounded half to even to a whole unit of the currency (a dollar, a yen).
  public var amountMinor: Int64
  /// The average before rounding (half to even, in minor units).
  public var averageMinor: Int64
  /// The months averaged, oldest first: complete months before today's, none before the
  /// currency's history starts (a month without data is not counted as zero spending).
  public var months: [Month]

  public init(category: String, currency: Currency, amountMinor: Int64, averageMinor: Int64, months: [Month]) {
    self.category = category
    self.currency = currency
    self.amountMinor = amountMinor
    self.averageMinor = averageMinor
    self.months = months
  }

  /// The months an average of `count` months ending before `today`'s month covers: the
  /// trailing window of the report (`BenchmarkCalculator.trailingWindow`), oldest first.
  public static func window(months count: Int, today: CivilDate, historyStart: Month?) -> [Month] {
    guard let historyStart, count > 0 else { return [] }
    let current = today.calendarMonth
    return (1...count).map { current.adding(months: -$0) }.filter { $0 >= historyStart }.reversed()
  }

  /// The suggestion for every (currency, spending category) in `totals` over `months`, or only
  /// `category`'s; categories that spent nothing in them (or got more back) get none.
  public static func suggestions(
    totals: [CategoryMonthTotal], months: [Month], kinds: [String: CategoryKind], category: String? = nil
  ) -> [BudgetSuggestion] {
    guard !months.isEmpty else { return [] }
    let window = Set(months)
    var sums: [Key: Int128] = [:]
    for total in totals where window.contains(total.month) {
      guard let name = total.category, category.map({ $0 == name }) ?? true,
        BenchmarkCalculator.kind(of: name, in: kinds) == .expense
      else { continue }
      sums[Key(currency: total.currency, category: name), default: 0] += BenchmarkCalculator.spending(total)
    }
    return sums.compactMap { key, sum -> BudgetSuggestion? in
      guard sum > 0 else { return nil }
      let average = Rounding.divideHalfEven(sum, Int128(months.count))
      let unit = Int128(key.currency.scale)
      let rounded = Rounding.divideHalfEven(average, unit) * unit
      return BudgetSuggestion(
        category: key.category, currency: key.currency, amountMinor: Rounding.clamp(rounded),
        averageMinor: Rounding.clamp(average), months: months)
    }
    .sorted { ($0.currency.code, $0.category) < ($1.currency.code, $1.category) }
  }

  struct Key: Hashable {
    var currency: Currency
    var category: String
  }
}

/// Turns monthly category totals and budgets into a `BudgetReport`, exactly as DESIGN §3 says.
///
/// Pure: `today` is a parameter, nothing is read from the clock or the database. The store
/// aggregates the rows in SQL; this type only does arithmetic on a few dozen totals.
public struct BenchmarkCalculator: Sendable {
  /// The day the report is computed for; decides pace and projection.
  public var today: CivilDate
  public var thresholds: StatusThresholds
  /// How many months before the report month the trailing average covers.
  public var trailingMonths: Int

  public init(today: CivilDate, thresholds: StatusThresholds = .init(), trailingMonths: Int = 3) {
    self.today = today
    self.thresholds = thresholds
    self.trailingMonths = trailingMonths
  }

  /// Everything the calculator needs, as the store loads it.
  public struct Input: Sendable {
    /// Totals per (currency, category, month) for at least the report month and the
    /// `trailingMonths` before it; months outside are ignored.
    public var totals: [CategoryMonthTotal]
    /// All budgets (defaults and month overrides); those for other months are ignored.
    public var budgets: [Budget]
    /// Category kinds; categories not listed are spending.
    public var kinds: [String: CategoryKind]
    /// The first month with any transaction, per currency: trailing averages never count
    /// months before a user's history starts as zero spending.
    public var historyStart: [Currency: Month]

    public init(
      totals: [CategoryMonthTotal], budgets: [Budget], kinds: [String: CategoryKind] = [:],
      historyStart: [Currency: Month] = [:]
    ) {
      self.totals = totals
      self.budgets = budgets
      self.kinds = kinds
      self.historyStart = historyStart
    }
  }

  /// Computes the report for `month`.
  public func report(for month: Month, input: Input) -> BudgetReport {
    let daysElapsed = month.contains(today) ? today.day : nil
    let budgets = effectiveBudgets(for: month, from: input.budgets)
    var currencies = Set(budgets.keys.map(\.currency))
    for total in input.totals where total.month == month { currencies.insert(total.currency) }

    var groups: [CurrencyGroup] = []
    for currency in currencies.sorted() {
      groups.append(
        group(currency: currency, month: month, input: input, budgets: budgets, daysElapsed: daysElapsed))
    }
    let count = input.totals.filter { $0.month == month }.reduce(0) { $0 + $1.count }
    return BudgetReport(
      month: month, today: today, daysInMonth: month.dayCount, daysElapsed: daysElapsed,
      groups: groups, expenseCount: count)
  }

  struct Key: Hashable {
    var currency: Currency
    var category: String
  }

  /// For each (currency, category): the month override if there is one, else the default.
  func effectiveBudgets(for month: Month, from budgets: [Budget]) -> [Key: Int64] {
    var defaults: [Key: Int64] = [:]
    var overrides: [Key: Int64] = [:]
    for budget in budgets {
      let key = Key(currency: budget.amount.currency, category: budget.category)
      if budget.month == nil {
        defaults[key] = budget.amount.minor
      } else if budget.month == month {
        overrides[key] = budget.amount.minor
      }
    }
    return defaults.merging(overrides) { _, override in override }
  }

  private func group(
    currency: Currency, month: Month, input: Input, budgets: [Key: Int64], daysElapsed: Int?
  ) -> CurrencyGroup {
    let trailing = trailingWindow(for: month, start: input.historyStart[currency])
    var current: [String: CategoryMonthTotal] = [:]
    var history: [String: Int64] = [:]
    var income: [String: Int64] = [:]
    for total in input.totals where total.currency == currency {
      let name = total.category ?? uncategorizedName
      let isIncome = total.category.flatMap { input.kinds[$0] } == .income
      if total.month == month {
        if isIncome {
          income[name, default: 0] &+= total.inflowMinor &- total.outflowMinor
        } else {
          var merged =
            current[name]
            ?? CategoryMonthTotal(
              currency: currency, category: name, month: month, outflowMinor: 0, inflowMinor: 0, count: 0)
          merged.outflowMinor &+= total.outflowMinor
          merged.inflowMinor &+= total.inflowMinor
          merged.count += total.count
          current[name] = merged
        }
      } else if !isIncome, trailing.contains(total.month) {
        history[name, default: 0] &+= total.spentMinor
      }
    }
    var names = Set(current.keys)
    for key in budgets.keys where key.currency == currency && input.kinds[key.category] != .income {
      names.insert(key.category)
    }

    var rows: [CategoryBenchmark] = []
    for name in names {
      let total = current[name]
      rows.append(
        benchmark(
          category: name, spent: total?.spentMinor ?? 0, count: total?.count ?? 0,
          budget: budgets[Key(currency: currency, category: name)],
          historySum: trailing.isEmpty ? nil : history[name] ?? 0, historyMonths: trailing.count,
          month: month, daysElapsed: daysElapsed))
    }
    rows.sort(by: BenchmarkCalculator.reportOrder)

    let budgeted = rows.compactMap(\.budgetMinor)
    let totalRow = benchmark(
      category: "Total", spent: rows.reduce(0) { $0 &+ $1.spentMinor },
      count: rows.reduce(0) { $0 + $1.transactionCount },
      budget: budgeted.isEmpty ? nil : budgeted.reduce(0, &+),
      historySum: trailing.isEmpty ? nil : history.values.reduce(0, &+), historyMonths: trailing.count,
      month: month, daysElapsed: daysElapsed)
    let totals = BenchmarkTotals(
      row: totalRow,
      overCount: rows.count { $0.status == .over }, nearCount: rows.count { $0.status == .near },
      underCount: rows.count { $0.status == .under }, unbudgetedCount: rows.count { $0.status == .unbudgeted })

    var allowance: Int64? = nil
    if let daysElapsed, let remaining = totalRow.remainingMinor, remaining > 0,
      month.dayCount - daysElapsed > 0
    {
      allowance = Rounding.scale(remaining, by: 1, over: Int64(month.dayCount - daysElapsed))
    }
    let incomeLines = income.map { IncomeLine(category: $0.key, amountMinor: $0.value) }
      .sorted { ($0.amountMinor, $1.category) > ($1.amountMinor, $0.category) }
    return CurrencyGroup(
      currency: currency, categories: rows, totals: totals, income: incomeLines, dailyAllowanceMinor: allowance)
  }

  /// The months the trailing average covers: up to `trailingMonths` before `month`, none before
  /// the history starts (a new user's first month has no average, not an average of zeros).
  func trailingWindow(for month: Month, start: Month?) -> [Month] {
    guard let start else { return [] }
    return (1...max(1, trailingMonths)).map { month.adding(months: -$0) }.filter { $0 >= start }
  }

  func benchmark(
    category: String, spent: Int64, count: Int, budget: Int64?, historySum: Int64?, historyMonths: Int,
    month: Month, daysElapsed: Int?
  ) -> CategoryBenchmark {
    let average = historySum.flatMap { sum in
      historyMonths > 0 ? Rounding.scale(sum, by: 1, over: Int64(historyMonths)) : nil
    }
    let change = average.flatMap { avg in avg > 0 ? Percent(part: spent &- avg, of: avg) : nil }
    var pace: Int64? = nil
    var projected: Int64? = nil
    if let daysElapsed {
      let days = Int64(month.dayCount)
      pace = budget.map { Rounding.scale($0, by: Int64(daysElapsed), over: days) }
      projected = Rounding.scale(spent, by: days, over: Int64(daysElapsed))
    }
    return CategoryBenchmark(
      category: category, budgetMinor: budget, spentMinor: spent,
      remainingMinor: budget.map { $0 &- spent },
      percentUsed: budget.flatMap { Percent(part: spent, of: $0) },
      status: thresholds.status(spent: spent, budget: budget),
      trailingAverageMinor: average, changeFromAveragePercent: change, paceMinor: pace,
      projectedMinor: projected, transactionCount: count)
  }

  /// Bad news first: budgeted rows by % used (over-budget zero budgets first), then unbudgeted
  /// by amount spent; names break ties so the order is deterministic.
  static func reportOrder(_ a: CategoryBenchmark, _ b: CategoryBenchmark) -> Bool {
    let aBudgeted = a.budgetMinor != nil
    let bBudgeted = b.budgetMinor != nil
    if aBudgeted != bBudgeted { return aBudgeted }
    if aBudgeted {
      let ap = a.percentUsed?.tenths ?? (a.spentMinor > 0 ? Int64.max : 0)
      let bp = b.percentUsed?.tenths ?? (b.spentMinor > 0 ? Int64.max : 0)
      if ap != bp { return ap > bp }
    }
    if a.spentMinor != b.spentMinor { return a.spentMinor > b.spentMinor }
    return a.category < b.category
  }

  /// Six months (or `count`) of spending per category ending with `month`, from monthly totals.
  public func trends(ending month: Month, count: Int = 6, totals: [CategoryMonthTotal], kinds: [String: CategoryKind])
    -> TrendReport
  {
    let months = (0..<count).reversed().map { month.adding(months: -$0) }
    let index = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
    var series: [Key: [Int64]] = [:]
    for total in totals {
      guard let slot = index[total.month] else { continue }
      if let name = total.category, kinds[name] == .income { continue }
      let key = Key(currency: total.currency, category: total.category ?? uncategorizedName)
      series[key, default: Array(repeating: 0, count: count)][slot] &+= total.spentMinor
    }
    let rows = series.map { TrendRow(currency: $0.key.currency, category: $0.key.category, spentMinor: $0.value) }
      .sorted {
        let a = $0.spentMinor.reduce(0, &+)
        let b = $1.spentMinor.reduce(0, &+)
        return ($0.currency.code, -a, $0.category) < ($1.currency.code, -b, $1.category)
      }
    return TrendReport(months: months, rows: rows)
  }
}

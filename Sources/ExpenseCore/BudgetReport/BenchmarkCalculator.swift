/// Turns monthly category totals and budgets into a `BudgetReport`, by the rules in docs/report.md.
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
    /// Totals per (currency, category, month) for at least the report month and the six
    /// months before it (three for the average, six for the shape of a month, with
    /// `dailyOutflowMinor` when the month contains today); months outside are ignored.
    public var totals: [CategoryMonthTotal]
    /// All budgets (defaults and month overrides); those for other months are ignored.
    public var budgets: [Budget]
    /// Category kinds; categories not listed are spending, except `Transfers` (a transfer).
    public var kinds: [String: CategoryKind]
    /// The first month with any transaction, per currency: trailing averages never count
    /// months before a user's history starts as zero spending.
    public var historyStart: [Currency: Month]
    /// The categories whose budget carries over, under their stored names; their months from
    /// `since` on must be in `totals` (`CarryCalculator`).
    public var rollovers: [Rollover]
    /// Budget moved between categories (`BudgetMove`): in force in their month, on top of the
    /// budgets; those of other months are ignored (or read by a carry through their month).
    public var moves: [BudgetMove]
    /// The categories budgeted by the quarter or the year (`BudgetPeriod`), under their stored
    /// names; the months of their period up to the report month must be in `totals`.
    public var periods: [CategoryPeriod]
    /// The recurring payments of each category (`RecurringCategory.of`): the projection adds
    /// what is still due and extrapolates only the rest. Empty: every category extrapolated.
    public var recurring: [RecurringCategory.Key: RecurringCategory] = [:]

    public init(
      totals: [CategoryMonthTotal], budgets: [Budget], kinds: [String: CategoryKind] = [:],
      historyStart: [Currency: Month] = [:], rollovers: [Rollover] = [], moves: [BudgetMove] = [],
      periods: [CategoryPeriod] = []
    ) {
      self.periods = periods
      self.totals = totals
      self.budgets = budgets
      self.kinds = kinds
      self.historyStart = historyStart
      self.rollovers = rollovers
      self.moves = moves
    }
  }

  /// Computes the report for `month`.
  public func report(for month: Month, input: Input) -> BudgetReport {
    let daysElapsed = month.contains(today) ? today.day : nil
    let budgets = Self.budgetsInForce(for: month, input: input)
    var currencies = Set(budgets.keys.map(\.currency))
    for total in input.totals where total.month == month { currencies.insert(total.currency) }
    // A recurring payment still due this month is a category's projection even before it is seen.
    if daysElapsed != nil {
      for (key, part) in input.recurring where part.stillDueMinor > 0 { currencies.insert(key.currency) }
    }

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
  static func effectiveBudgets(for month: Month, from budgets: [Budget]) -> [Key: Int64] {
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

  /// The budget in force of `category` in `currency` and `month` (see `budgetsInForce`).
  public static func budget(of category: String, in currency: Currency, month: Month, input: Input) -> Int64? {
    budgetsInForce(for: month, input: input)[Key(currency: currency, category: category)]
  }

  /// Each (currency, category)'s budget in force in `month`: its budget (`effectiveBudgets`)
  /// plus what was moved to it that month, less what was moved from it (a category without a
  /// budget that got a move has the move as its budget). A quarterly or yearly budget is its
  /// every-month amount for the whole period, with the moves of the period's months up to
  /// `month`.
  static func budgetsInForce(for month: Month, input: Input) -> [Key: Int64] {
    var budgets = effectiveBudgets(for: month, from: input.budgets)
    let periods = periodsByKey(input)
    for budget in input.budgets where budget.month == nil {
      let key = Key(currency: budget.amount.currency, category: budget.category)
      if periods[key] != nil { budgets[key] = budget.amount.minor }
    }
    let moveMonths = Set(input.moves.map(\.month)).filter { $0 <= month }
    for moveMonth in moveMonths.sorted() {
      for currency in Set(input.moves.filter { $0.month == moveMonth }.map(\.currency)) {
        for (category, net) in BudgetMove.net(input.moves, month: moveMonth, currency: currency) where net != 0 {
          let key = Key(currency: currency, category: category)
          guard (periods[key] ?? .month).months(containing: month).contains(moveMonth) else { continue }
          budgets[key] = Rounding.clamp(Int128(budgets[key] ?? 0) + Int128(net))
        }
      }
    }
    return budgets
  }

  /// The quarterly and yearly budgets of `input`, by (currency, category).
  static func periodsByKey(_ input: Input) -> [Key: BudgetPeriod] {
    Dictionary(
      input.periods.filter { $0.period != .month }.map {
        (Key(currency: $0.currency, category: $0.category), $0.period)
      },
      uniquingKeysWith: { first, _ in first })
  }

  /// The kind of a stored category (`nil`: uncategorized, which is spending).
  public static func kind(of category: String?, in kinds: [String: CategoryKind]) -> CategoryKind {
    guard let category else { return .expense }
    // Stored names are tidied, one spelling per category: only case can tell "transfers" apart.
    return kinds[category] ?? (category.lowercased() == transfersName.lowercased() ? .transfer : .expense)
  }

  /// What one (month, category) total counts as spending: outflows − inflows for a category
  /// (a refund lowers it); for uncategorized rows only the outflows (money in without a
  /// category is unsorted money in, never negative spending).
  static func spending(_ total: CategoryMonthTotal) -> Int128 {
    total.category == nil
      ? Int128(total.outflowMinor) : Int128(total.outflowMinor) - Int128(total.inflowMinor)
  }

  private func group(
    currency: Currency, month: Month, input: Input, budgets: [Key: Int64], daysElapsed: Int?
  ) -> CurrencyGroup {
    let trailing = trailingWindow(for: month, start: input.historyStart[currency])
    let shapeMonths = daysElapsed == nil ? [] : shapeWindow(for: month, start: input.historyStart[currency])
    var current: [String: (spent: Int128, count: Int)] = [:]
    var soFar: [String: MonthSoFar] = [:]
    var history: [String: Int128] = [:]
    var shapes: [String: [CategoryMonthTotal]] = [:]
    var income: [String: Int128] = [:]
    var unsortedIn: Int128 = 0
    var unsortedCount = 0
    var transfers: Int128 = 0
    var transferCount = 0
    let rollovers = Dictionary(
      input.rollovers.filter { $0.currency == currency && $0.mode != .off }.map { ($0.category, $0) },
      uniquingKeysWith: { first, _ in first })
    let periods = Dictionary(
      input.periods.filter { $0.currency == currency && $0.period != .month }.map { ($0.category, $0.period) },
      uniquingKeysWith: { first, _ in first })
    // What each rollover category spent in each month before this one, since its rollover began.
    var past: [String: [Month: Int128]] = [:]
    // What each quarterly or yearly category spent in its period before this month.
    var periodPast: [String: Int128] = [:]
    for total in input.totals where total.currency == currency {
      let name = total.category ?? uncategorizedName
      let kind = BenchmarkCalculator.kind(of: total.category, in: input.kinds)
      if total.month == month {
        switch kind {
        case .income:
          income[name, default: 0] += Int128(total.inflowMinor) - Int128(total.outflowMinor)
        case .transfer:
          transfers += Int128(total.outflowMinor) - Int128(total.inflowMinor)
          transferCount += total.count
        case .expense:
          var count = total.count
          if total.category == nil {
            unsortedIn += Int128(total.inflowMinor)
            unsortedCount += total.inflowCount
            count -= total.inflowCount
            if count <= 0 && total.outflowMinor == 0 { continue }
          }
          current[name, default: (0, 0)].spent += BenchmarkCalculator.spending(total)
          current[name, default: (0, 0)].count += count
          if let daysElapsed {
            let part = MonthSoFar(total: total, daysElapsed: daysElapsed)
            soFar[name, default: MonthSoFar()].laterOutflow += part.laterOutflow
            soFar[name, default: MonthSoFar()].spendingDays += part.spendingDays
          }
        }
      } else if kind == .expense {
        if let rollover = rollovers[name], total.month >= rollover.since, total.month < month {
          past[name, default: [:]][total.month, default: 0] += BenchmarkCalculator.spending(total)
        }
        if let period = periods[name], total.month < month, period.months(containing: month).contains(total.month) {
          periodPast[name, default: 0] += BenchmarkCalculator.spending(total)
        }
        if trailing.contains(total.month) { history[name, default: 0] += BenchmarkCalculator.spending(total) }
        if shapeMonths.contains(total.month) { shapes[name, default: []].append(total) }
      }
    }
    var names = Set(current.keys)
    for key in budgets.keys
    where key.currency == currency && BenchmarkCalculator.kind(of: key.category, in: input.kinds) == .expense {
      names.insert(key.category)
    }
    if daysElapsed != nil {
      for (key, part) in input.recurring
      where key.currency == currency && part.stillDueMinor > 0
        && BenchmarkCalculator.kind(of: key.category, in: input.kinds) == .expense
      {
        names.insert(key.category)
      }
    }

    var capped = false
    var rows: [CategoryBenchmark] = []
    for name in names {
      let total = current[name]
      let spent = BenchmarkCalculator.clamp(total?.spent ?? 0, &capped)
      let budget = budgets[Key(currency: currency, category: name)]
      let monthSoFar = soFar[name] ?? MonthSoFar()
      let projection = daysElapsed.map { days in
        project(
          spent: spent, budget: budget, history: shapes[name] ?? [], soFar: monthSoFar, month: month,
          daysElapsed: days, recurring: input.recurring[RecurringCategory.Key(currency: currency, category: name)])
      }
      var row = benchmark(
        category: name, spent: spent, count: total?.count ?? 0, budget: budget,
        historySum: trailing.isEmpty ? nil : history[name] ?? 0,
        historyMonths: trailing.count, month: month, projection: projection)
      let moved = BudgetMove.net(input.moves, month: month, currency: currency)[name] ?? 0
      if moved != 0 { row.movedMinor = moved }
      if let rollover = rollovers[name], let budget {
        let key = Key(currency: currency, category: name)
        let carry = CarryCalculator.carry(
          into: month, rollover: rollover, budget: { Self.budgetsInForce(for: $0, input: input)[key] },
          spent: { BenchmarkCalculator.clamp(past[name]?[$0] ?? 0, &capped) })
        applyCarry(carry.carriedInMinor, months: carry.months, budget: budget, to: &row)
      }
      if let period = periods[name], let budget {
        let before = BenchmarkCalculator.clamp(periodPast[name] ?? 0, &capped)
        applyPeriod(period, budget: budget, month: month, spentBefore: before, to: &row)
      }
      if let projection, let budget, let daysElapsed, daysElapsed < month.dayCount {
        // A period's spending by today: what the months before spent, and this month's so far.
        let before = Int128(row.periodSpentMinor ?? spent) - Int128(spent)
        row.aheadOfPace = thresholds.isAheadOfPace(
          spentByToday: before + Int128(spent) - monthSoFar.laterOutflow, pace: row.paceMinor, budget: budget,
          status: row.status, basis: projection.basis)
      }
      rows.append(row)
    }
    rows.sort(by: BenchmarkCalculator.reportOrder)

    // The month's total counts a quarterly or yearly budget by its month's share (and its
    // pace and projection by the month's), never its whole amount every month.
    let budgeted = rows.compactMap { $0.monthShareMinor ?? $0.budgetMinor }
    var totalProjection: Projection? = nil
    if let daysElapsed {
      let paces = rows.compactMap { row in
        row.monthShareMinor.map { Rounding.scale($0, by: Int64(daysElapsed), over: Int64(month.dayCount)) }
          ?? row.paceMinor
      }
      let projections = rows.compactMap { row in
        row.projectedMinor.map {
          Rounding.clamp(Int128($0) - Int128(row.periodSpentMinor ?? row.spentMinor) + Int128(row.spentMinor))
        }
      }
      let bases = Set(rows.compactMap(\.projectionBasis))
      totalProjection = Projection(
        pace: paces.isEmpty ? nil : BenchmarkCalculator.sum(paces, &capped),
        projected: BenchmarkCalculator.sum(projections, &capped),
        basis: bases.contains(.history) ? .history : bases.contains(.linear) ? .linear : .recorded)
    }
    let budget = budgeted.isEmpty ? nil : Optional(BenchmarkCalculator.sum(budgeted, &capped))
    let budgetedSpent = BenchmarkCalculator.sum(rows.filter { $0.budgetMinor != nil }.map(\.spentMinor), &capped)
    let unbudgetedSpent = BenchmarkCalculator.sum(rows.filter { $0.budgetMinor == nil }.map(\.spentMinor), &capped)
    var totalRow = benchmark(
      category: "Total", spent: BenchmarkCalculator.sum(rows.map(\.spentMinor), &capped),
      count: rows.reduce(0) { $0 + $1.transactionCount }, budget: budget,
      historySum: trailing.isEmpty ? nil : history.values.reduce(0, +),
      historyMonths: trailing.count, month: month, projection: totalProjection)
    // Like with like: the budget is compared with what budgeted categories spent; what the
    // others spent is stated apart (`unbudgetedSpentMinor`), never added to the budget's side.
    if let budget {
      totalRow.remainingMinor = Rounding.clamp(Int128(budget) - Int128(budgetedSpent))
      totalRow.percentUsed = Percent(part: max(budgetedSpent, 0), of: budget)
      totalRow.status = thresholds.status(spent: budgetedSpent, budget: budget)
      let carries = rows.compactMap(\.carriedInMinor)
      if !carries.isEmpty {
        totalRow.spentMinor = budgetedSpent
        applyCarry(BenchmarkCalculator.sum(carries, &capped), months: nil, budget: budget, to: &totalRow)
        totalRow.spentMinor = BenchmarkCalculator.sum(rows.map(\.spentMinor), &capped)
      }
    }
    if totalRow.budgetMinor != nil { totalRow.period = .month }
    var totals = BenchmarkTotals(
      row: totalRow,
      overCount: rows.count { $0.status == .over }, nearCount: rows.count { $0.status == .near },
      underCount: rows.count { $0.status == .under }, unbudgetedCount: rows.count { $0.status == .unbudgeted })
    totals.budgetedSpentMinor = budgetedSpent
    totals.unbudgetedSpentMinor = unbudgetedSpent
    totals.aheadCount = rows.count(where: \.aheadOfPace)

    var allowance: Int64? = nil
    if let daysElapsed, let remaining = totalRow.remainingMinor, remaining > 0,
      month.dayCount - daysElapsed > 0
    {
      allowance = Rounding.scale(remaining, by: 1, over: Int64(month.dayCount - daysElapsed))
    }
    let incomeLines = income.map {
      IncomeLine(category: $0.key, amountMinor: BenchmarkCalculator.clamp($0.value, &capped))
    }
    .sorted { ($0.amountMinor, $1.category) > ($1.amountMinor, $0.category) }
    var group = CurrencyGroup(
      currency: currency, categories: rows, totals: totals, income: incomeLines, dailyAllowanceMinor: allowance,
      unsortedInMinor: BenchmarkCalculator.clamp(unsortedIn, &capped), unsortedInCount: unsortedCount,
      transfersMinor: BenchmarkCalculator.clamp(transfers, &capped), transferCount: transferCount,
      amountsCapped: capped)
    group.moves = input.moves.filter { $0.month == month && $0.currency == currency }.sorted { $0.id < $1.id }
    return group
  }

  /// `row` under rollover: what came in is added to its budget, and what is left, the percent
  /// used and the status are measured against that (what is available), not the budget alone.
  func applyCarry(_ carried: Int64, months: [Month]?, budget: Int64, to row: inout CategoryBenchmark) {
    let allowance = Rounding.clamp(Int128(budget) + Int128(carried))
    row.carriedInMinor = carried
    row.carriedFromMonths = months
    row.availableMinor = Rounding.clamp(Int128(allowance) - Int128(row.spentMinor))
    row.remainingMinor = row.availableMinor
    row.percentUsed = allowance > 0 ? Percent(part: max(row.spentMinor, 0), of: allowance) : nil
    row.status = thresholds.status(spent: row.spentMinor, budget: allowance)
  }

  /// `row` under a quarterly or yearly budget: left, percent used and status measure what the
  /// period spent so far (the months before and this one) against its amount; pace is the
  /// amount prorated by day through today; the projection is the period's spending by the
  /// month's end. `spentMinor` stays the month's; the month's total counts `monthShareMinor`.
  func applyPeriod(
    _ period: BudgetPeriod, budget: Int64, month: Month, spentBefore: Int64, to row: inout CategoryBenchmark
  ) {
    let range = period.months(containing: month)
    let spent = Rounding.clamp(Int128(spentBefore) + Int128(row.spentMinor))
    row.period = period
    row.periodFrom = range.lowerBound
    row.periodThrough = range.upperBound
    row.periodSpentMinor = spent
    row.monthShareMinor = period.share(of: budget, in: month)
    row.remainingMinor = Rounding.clamp(Int128(budget) - Int128(spent))
    row.percentUsed = Percent(part: max(spent, 0), of: budget)
    row.status = thresholds.status(spent: spent, budget: budget)
    if row.paceMinor != nil { row.paceMinor = period.pace(of: budget, through: today) }
    if let projected = row.projectedMinor {
      row.projectedMinor = Rounding.clamp(Int128(spentBefore) + Int128(projected))
    }
  }

  /// The months the trailing average covers: up to `trailingMonths` before `month`, none before
  /// the history starts (a new user's first month has no average, not an average of zeros) and
  /// none from today's month on (a month not over yet, or still to come, is no yardstick).
  func trailingWindow(for month: Month, start: Month?) -> [Month] {
    guard let start else { return [] }
    return (1...max(1, trailingMonths)).map { month.adding(months: -$0) }
      .filter { $0 >= start && $0 < today.calendarMonth }
  }

  /// `value` as `Int64`, capped at the limits (and `capped` set) when it does not fit.
  static func clamp(_ value: Int128, _ capped: inout Bool) -> Int64 {
    if value > Int128(Int64.max) || value < -Int128(Int64.max) {
      capped = true
      return value > 0 ? .max : -.max
    }
    return Int64(value)
  }

  /// The sum of `values`, added in 128 bits (never traps, never wraps), then capped.
  static func sum(_ values: [Int64], _ capped: inout Bool) -> Int64 {
    clamp(values.reduce(Int128(0)) { $0 + Int128($1) }, &capped)
  }

  func benchmark(
    category: String, spent: Int64, count: Int, budget: Int64?, historySum: Int128?, historyMonths: Int,
    month: Month, projection: Projection?
  ) -> CategoryBenchmark {
    let average = historySum.flatMap { sum in
      historyMonths > 0 ? Rounding.clamp(Rounding.divideHalfEven(sum, Int128(historyMonths))) : nil
    }
    let isFuture = month > today.calendarMonth
    let change = average.flatMap { avg in
      avg > 0 && !isFuture ? Percent(part: Rounding.clamp(Int128(spent) - Int128(avg)), of: avg) : nil
    }
    var row = CategoryBenchmark(
      category: category, budgetMinor: budget, spentMinor: spent,
      remainingMinor: budget.map { Rounding.clamp(Int128($0) - Int128(spent)) },
      percentUsed: budget.flatMap { Percent(part: max(spent, 0), of: $0) },
      status: thresholds.status(spent: spent, budget: budget),
      trailingAverageMinor: average, changeFromAveragePercent: change, paceMinor: projection?.pace,
      projectedMinor: projection?.projected, transactionCount: count, kind: .expense,
      averageMonths: average == nil ? nil : historyMonths, projectionBasis: projection?.basis)
    if budget != nil { row.period = .month }
    return row
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
  /// `historyStart` marks the months before each currency's first transaction as without data.
  public func trends(
    ending month: Month, count: Int = 6, totals: [CategoryMonthTotal], kinds: [String: CategoryKind],
    historyStart: [Currency: Month] = [:], budgets: [Budget] = []
  ) -> TrendReport {
    let months = (0..<count).reversed().map { month.adding(months: -$0) }
    let index = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
    var series: [Key: [Int64]] = [:]
    for total in totals {
      guard let slot = index[total.month] else { continue }
      if BenchmarkCalculator.kind(of: total.category, in: kinds) != .expense { continue }
      let key = Key(currency: total.currency, category: total.category ?? uncategorizedName)
      var capped = false
      let spent = BenchmarkCalculator.clamp(BenchmarkCalculator.spending(total), &capped)
      let previous = series[key, default: Array(repeating: 0, count: count)][slot]
      series[key, default: Array(repeating: 0, count: count)][slot] = BenchmarkCalculator.sum(
        [previous, spent], &capped)
    }
    // Each month's status against the monthly budget in force then (a quarterly or yearly
    // budget has no month of its own to be over in).
    let monthly = months.map { Self.effectiveBudgets(for: $0, from: budgets) }
    // Same days last month: the month before the report month up to the day that corresponds
    // to today (1st-20th against 1st-20th), from its day-by-day outflows.
    let previous = month.adding(months: -1)
    let throughDay =
      month.contains(today)
      ? BenchmarkCalculator.correspondingDay(today.day, of: month.dayCount, in: previous) : nil
    var sameDays: [Key: Int128] = [:]
    if let throughDay {
      for total in totals where total.month == previous {
        guard BenchmarkCalculator.kind(of: total.category, in: kinds) == .expense, let daily = total.dailyOutflowMinor
        else { continue }
        let key = Key(currency: total.currency, category: total.category ?? uncategorizedName)
        sameDays[key, default: 0] += daily.prefix(throughDay).reduce(Int128(0)) { $0 + Int128($1) }
      }
    }
    let rows = series.map { key, spent in
      var row = TrendRow(
        currency: key.currency, category: key.category, spentMinor: spent, historyStart: historyStart[key.currency])
      row.status = zip(spent, monthly).map { amount, budgets in
        budgets[key].map { thresholds.status(spent: amount, budget: $0) }
      }
      if throughDay != nil { row.sameDaysLastMonthMinor = Rounding.clamp(sameDays[key] ?? 0) }
      return row
    }
    .sorted {
      let a = $0.spentMinor.reduce(Int128(0)) { $0 + Int128($1) }
      let b = $1.spentMinor.reduce(Int128(0)) { $0 + Int128($1) }
      return ($0.currency.code, -a, $0.category) < ($1.currency.code, -b, $1.category)
    }
    var report = TrendReport(months: months, rows: rows)
    report.sameDaysThrough = throughDay
    return report
  }
}

import ExpenseCore
import ExpenseRender
import ExpenseStore

/// Glue between the store and the calculator: loads exactly what a report needs.
///
/// The store aggregates six months of totals in SQL (the report month, the three before it for
/// the trailing average, and the rest for trends); the month's expense rows are loaded only
/// when the report includes the expenses section, so a folded list of a million rows in a
/// terminal report costs nothing.
public struct ReportLoader {
  public var store: any LedgerStore

  public init(store: any LedgerStore) { self.store = store }

  /// Months the Trends section holds unless asked otherwise: a year, what a wide terminal shows.
  public static let defaultTrendMonths = 12
  /// The most `report --months` takes.
  public static let maxTrendMonths = 36

  /// The report of `month`, with the content of the sections in `including` (summary,
  /// category performance, trends, recurring series and tags are always computed). `explainCategories` fills each expense's
  /// `categorizedBy`, which only row details show.
  public func report(
    month: Month, today: CivilDate, including: Set<SectionID> = Set(SectionID.allCases),
    explainCategories: Bool = false, trendMonths: Int = ReportLoader.defaultTrendMonths
  ) throws
    -> BudgetReport
  {
    let calculator = BenchmarkCalculator(today: today)
    // Six months before the report month: three for the average, six for the shape of a
    // month (with day-by-day outflows only when the month contains today, to pace it).
    let first = month.adding(months: -BenchmarkCalculator.shapeMonths)
    let totals = try store.monthlyTotals(from: first, through: month, daily: month.contains(today))
    let kinds = try store.categoryKinds()
    let historyStart = try store.historyStart()
    // A carry reads every month since its rollover began, a goal every month since it was
    // added, a budget by the year its year: the months older than the six above are read once,
    // for all of them. (The calculator
    // and the goals read only the months they need of what they are given.)
    let rollovers = try Rollovers.load(store)
    let goals = try Goals.load(store)
    // A quarterly or yearly budget reads its period's months up to this one.
    let periods = try PeriodSettings.load(store)
    let periodStarts = periods.map { $0.period.months(containing: month).lowerBound }
    var longTotals = totals
    if let since = (rollovers.map(\.since) + goals.map(\.since) + periodStarts).min(), since < first {
      longTotals += try store.monthlyTotals(from: since, through: first.adding(months: -1), daily: false)
    }
    // Recurring series: found from the rows up to the month's end, less those the user
    // ignored; the projection expects what they still owe this month instead of
    // extrapolating it, and the section lists them.
    let decisions = try RecurringRecords.load(store)
    let series = try RecurringPayments.series(store, through: month, today: min(today, month.lastDay)).filter {
      decisions[RecurringRecords.Key(payee: $0.payee, currency: $0.currency)]?.body.decision != .ignored
    }
    var input = BenchmarkCalculator.Input(
      totals: longTotals, budgets: try store.budgets(), kinds: kinds, historyStart: historyStart,
      rollovers: rollovers, moves: try BudgetMoves.load(store), periods: periods)
    input.recurring = RecurringCategory.of(series, month: month, today: today)
    var report = calculator.report(for: month, input: input)
    report.recurring = series.filter { !$0.stopped }.map { one in
      let stored = decisions[RecurringRecords.Key(payee: one.payee, currency: one.currency)]
      return RecurringLine(
        series: one, id: stored?.id, confirmed: stored?.body.decision == .confirmed, month: month, today: today)
    }
    // Goals: measured against this report's rows (a rollover's available) or their
    // category's spending since each began.
    report.goals = Goals.progress(goals, in: month, report: report, totals: longTotals, kinds: kinds)
    // Accounts against their bank: only when a statement stated a balance (the check reads
    // every row of the ledger once, which a report without balances never pays).
    let stated = try StatementBalances.load(store).map(\.body.balance)
    if !stated.isEmpty {
      report.accounts = try AccountStandings.of(store, stated: stated).flatMap { standing in
        standing.balances.map {
          AccountCheck(
            account: standing.name, currency: $0.currency, balanceMinor: $0.balanceMinor, matchedOn: $0.matchedOn,
            offByMinor: $0.offByMinor, offSince: $0.offSince, firstRowAfterMatchId: $0.firstRowAfterMatch?.id)
        }
      }
    }
    report.tags = try TagReport.lines(store, month: month)
    report.firstMonthWithData = historyStart.values.min()
    report.latestMonthWithData = try store.latestMonth()
    if including.contains(.expenses) {
      var expenses = try store.expenses(month: month, category: nil, limit: nil)
      // Row details only: a rule match per row is not worth paying for JSON, CSV or HTML.
      if explainCategories {
        CategoryExplainer(rules: try store.rules(), pairs: try store.transferPairs()).explain(&expenses)
      }
      report.expenses = expenses
    }
    // Trends are monthly sums, a few more of them: computed folded too, so a folded header
    // counts the months its open section shows.
    do {
      // A year of months ends with this one (none before the first month with data: a month
      // without any says nothing); those before the six above are read once more.
      var count = min(ReportLoader.maxTrendMonths, max(1, trendMonths))
      if let earliest = historyStart.values.min(), earliest <= month {
        let available = (month.year - earliest.year) * 12 + month.month - earliest.month + 1
        count = min(count, max(1, available))
      }
      let trendFirst = month.adding(months: -(count - 1))
      var trendTotals = totals
      if trendFirst < first {
        trendTotals += try store.monthlyTotals(from: trendFirst, through: first.adding(months: -1), daily: false)
      }
      report.trends = calculator.trends(
        ending: month, count: count, totals: trendTotals, kinds: kinds, historyStart: historyStart,
        budgets: input.budgets)
    }
    return report
  }
}

import ExpenseCore

/// Renders a `BudgetReport` as terminal text that fits `RenderOptions.width` (docs/sections-and-widths.md).
///
/// Pure: the same report and options give the same bytes. Every line fits the width in terminal
/// cells (checked once more on the way out), user text is sanitized, colour is opt-in.
public struct TextRenderer {
  public let options: RenderOptions

  public init(options: RenderOptions) { self.options = options }

  /// The whole report, one `\n`-terminated line after another.
  public func render(_ report: BudgetReport) -> String {
    let context = TextContext(options: options)
    var out = TextOutput(context: context)
    renderTitle(report, context, &out)
    if report.groups.isEmpty && (report.expenses ?? []).isEmpty {
      renderEmpty(report, context, &out)
      return out.text
    }
    renderNoDataNotice(report, context, &out)
    renderSummary(report, context, &out)
    renderCategorySection(report, context, &out)
    renderGoalsSection(report, context, &out)
    renderAccountsSection(report, context, &out)
    renderRecurringSection(report, context, &out)
    renderTagsSection(report, context, &out)
    renderExpensesSection(report, context, &out)
    renderTrendsSection(report, context, &out)
    return out.text
  }

  func renderTitle(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    let title = "\(report.month.longName) budget"
    var right: String
    if c.size == .compact {
      right = "as of \(report.today.calendarMonth.shortName) \(report.today.day)"
    } else {
      right = "as of \(report.today)"
      let codes = report.groups.map(\.currency.code)
      if !codes.isEmpty { right += " " + codes.joined(separator: " ") }
    }
    if c.plain {
      out.addFlow([title, right], separator: ", ")
    } else {
      // The title gives way first: "October 2026 budget", "October 2026", "Oct 2026".
      // Then "as of" goes: "October 2026      Oct 20".
      let titles = [title, report.month.longName, "\(report.month.shortName) \(report.month.year)"]
      var pair = (title, right)
      search: for candidate in [right, c.size == .compact ? String(right.dropFirst(6)) : right] {
        for left in titles where DisplayWidth.of(left) + 1 + DisplayWidth.of(candidate) <= c.width {
          pair = (left, candidate)
          break search
        }
      }
      out.add(c.style.bold(TextLayout.spread(pair.0, pair.1, width: c.width, ellipsis: c.glyphs.ellipsis)))
      out.add(c.divider)
    }
  }

  func renderEmpty(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    if report.isMonthWithoutData {
      renderNoDataNotice(report, c, &out)
      out.addFlow(["Set a budget:", "expenses budget set CATEGORY AMOUNT"], separator: " ", rest: "  ")
      return
    }
    out.addFlow(["No expenses or budgets for \(report.month.longName)."], separator: " ")
    out.add("")
    out.addFlow(["Import a bank file:", "expenses import FILE"], separator: " ", rest: "  ")
    out.addFlow(["Set a budget:", "expenses budget set CATEGORY AMOUNT"], separator: " ", rest: "  ")
  }

  /// For a month without rows in a database with some: say so, and give the exact command for
  /// the latest month with data. Why: a bank file is usually last month's, and a report of
  /// this month right after importing it must not read as if nothing had been imported.
  func renderNoDataNotice(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard report.isMonthWithoutData, let latest = report.latestMonthWithData else { return }
    let month = report.month.longName
    if let first = report.firstMonthWithData, report.month < first {
      out.addFlow(["No data for \(month):", "your data starts in \(first.longName)."], separator: " ", rest: "  ")
    } else {
      out.addFlow(["No expenses in \(month)."], separator: " ", rest: "  ")
    }
    out.addFlow(
      ["Latest data: \(latest.longName):", "expenses report --month \(latest)"], separator: " ", rest: "  ")
    out.blank()
  }

  // MARK: Summary

  func renderSummary(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    if c.plain {
      out.blank()
      out.addFlow(
        [c.header(.summary, count: report.groups.count, noun: "currency", bad: nil, expanded: true)], separator: ", ")
    }
    for group in report.groups {
      if report.groups.count > 1 { out.add(c.currencyHeading(group.currency)) }
      if c.size == .compact && !c.plain {
        compactSummary(group, report, c, &out)
      } else {
        sentenceSummary(group, report, c, &out)
      }
    }
  }

  /// Label/value lines, the compact summary.
  func compactSummary(_ group: CurrencyGroup, _ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    let row = group.totals.row
    let labelWidth = c.width < 30 ? 7 : 9
    func line(_ label: String, _ parts: [String], right: String = "") {
      let labelText = TextLayout.padRight(label, labelWidth)
      let joined = labelText + parts.joined(separator: c.separator)
      if !right.isEmpty, DisplayWidth.of(joined) + 1 + DisplayWidth.of(right) <= c.width {
        out.add(TextLayout.spread(joined, right, width: c.width, ellipsis: c.glyphs.ellipsis))
        return
      }
      let all = right.isEmpty ? parts : parts + [right]
      out.addFlow(all, separator: c.separator, first: labelText, rest: TextLayout.spaces(labelWidth))
    }
    let amounts = c.amountsFitting(
      [row.spentMinor, row.budgetMinor ?? 0], group.currency, room: c.width - labelWidth - 10)
    let unbudgeted = group.totals.unbudgetedSpentMinor
    if row.spentMinor < 0 {
      var parts = [amounts.money(row.spentMinor.magnitudeClamped, group.currency), "refunds > spent"]
      if let budget = row.budgetMinor { parts.append("budget " + amounts.money(budget, group.currency)) }
      line("Credit", parts)
    } else if let budget = row.budgetMinor {
      let spent =
        amounts.money(group.totals.budgetedSpentMinor, group.currency) + " of " + amounts.money(budget, group.currency)
      line("Spent", [spent], right: c.style.status(row.status, amounts.percent(row.percentUsed)))
    } else {
      line("Spent", [amounts.money(row.spentMinor, group.currency), "no budgets set"])
    }
    if let remaining = row.remainingMinor {
      var parts = [amounts.money(remaining.magnitudeClamped, group.currency)]
      if let days = report.daysLeft { parts.append(days == 1 ? "1 day" : "\(days) days") }
      if let perDay = group.dailyAllowanceMinor { parts.append(amounts.money(perDay, group.currency) + "/day") }
      line(remaining < 0 ? "Over" : "Left", parts)
    }
    if row.budgetMinor != nil && row.spentMinor >= 0 && unbudgeted != 0 {
      line("Other", [amounts.spent(unbudgeted, group.currency), "no budget"])
    }
    line("Status", statusParts(group.totals, c))
    if let income = incomeTotal(group) { line("Income", [amounts.money(income, group.currency)]) }
    for parts in moneyInLines(group, amounts) { out.addFlow(parts, separator: c.separator, rest: "  ") }
  }

  /// The summary as flowed sentences: regular and wide widths, and plain mode at every width.
  func sentenceSummary(_ group: CurrencyGroup, _ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    let row = group.totals.row
    let amounts = c.amountsFitting([row.spentMinor, row.budgetMinor ?? 0], group.currency, room: c.width - 16)
    var parts: [String] = []
    let spent = amounts.money(row.spentMinor, group.currency)
    if row.spentMinor < 0 {
      parts.append("Credit \(amounts.money(row.spentMinor.magnitudeClamped, group.currency)) (refunds > spent)")
      if let budget = row.budgetMinor { parts.append("budget \(amounts.money(budget, group.currency))") }
    } else if let budget = row.budgetMinor {
      let percent = amounts.percent(row.percentUsed)
      let budgeted = amounts.money(group.totals.budgetedSpentMinor, group.currency)
      parts.append(
        "Spent \(budgeted) of \(amounts.money(budget, group.currency)) (\(c.style.status(row.status, percent)))")
    } else {
      parts.append("Spent \(spent)")
      parts.append("no budgets set")
    }
    if let remaining = row.remainingMinor {
      let amount = amounts.money(remaining.magnitudeClamped, group.currency)
      parts.append(remaining < 0 ? c.style.status(.over, "\(amount) over") : "\(amount) left")
    }
    if let days = report.daysLeft { parts.append(days == 1 ? "1 day left" : "\(days) days left") }
    if let perDay = group.dailyAllowanceMinor { parts.append("\(amounts.money(perDay, group.currency)) a day") }
    out.addFlow(parts, separator: c.separator)
    if row.budgetMinor != nil && row.spentMinor >= 0 && group.totals.unbudgetedSpentMinor != 0 {
      // Beside the budget, never in it: the headline compares budgeted spending with the budget.
      out.addFlow(
        ["Without a budget \(amounts.spent(group.totals.unbudgetedSpentMinor, group.currency))", "total \(spent)"],
        separator: c.separator)
    }
    out.addFlow(statusParts(group.totals, c), separator: c.separator, first: "Categories: ", rest: "  ")
    if let income = incomeTotal(group) {
      out.addFlow(["Income \(amounts.money(income, group.currency))"], separator: c.separator)
    }
    for parts in moneyInLines(group, amounts) { out.addFlow(parts, separator: c.separator, rest: "  ") }
  }

  func statusParts(_ totals: BenchmarkTotals, _ c: TextContext) -> [String] {
    var parts: [String] = []
    if totals.overCount > 0 { parts.append(c.style.status(.over, "\(totals.overCount) over")) }
    if totals.nearCount > 0 { parts.append(c.style.status(.near, "\(totals.nearCount) near")) }
    if totals.underCount > 0 { parts.append(c.style.status(.under, "\(totals.underCount) under")) }
    if totals.unbudgetedCount > 0 { parts.append("\(totals.unbudgetedCount) no budget") }
    if totals.aheadCount > 0 { parts.append(c.style.status(.near, "\(totals.aheadCount) ahead of pace")) }
    if parts.isEmpty { parts.append("no categories") }
    return parts
  }

  func incomeTotal(_ group: CurrencyGroup) -> Int64? {
    guard !group.income.isEmpty else { return nil }
    let sum = group.income.reduce(Int128(0)) { $0 + Int128($1.amountMinor) }
    return Int64(clamping: sum)
  }

  // MARK: Sections

  /// Header (and divider) of a section; returns whether its body should print.
  func sectionHeader(
    _ id: SectionID, count: Int, noun: String, bad: String?, _ c: TextContext, _ out: inout TextOutput
  ) -> Bool {
    let expanded = c.isExpanded(id)
    // Consecutive collapsed headers stay together: a folded report reads as a short list.
    if !out.lastWasCollapsedHeader { out.blank() }
    let header = c.header(id, count: count, noun: noun, bad: bad, expanded: expanded)
    if c.plain {
      out.addFlow([header], separator: ", ")
    } else {
      out.add(header)
    }
    if expanded && !c.plain { out.add(c.divider) }
    out.lastWasCollapsedHeader = !expanded
    return expanded
  }

  func renderExpensesSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard sectionHeader(.expenses, count: report.expenseCount, noun: "item", bad: nil, c, &out) else { return }
    guard let expenses = report.expenses else {
      out.add("Not loaded.")
      return
    }
    if expenses.isEmpty {
      out.add("No expenses this month.")
      return
    }
    let list = ExpenseListRenderer(width: c.width, glyphs: c.options.glyphs)
    for line in list.lines(expenses, details: c.options.details, plain: c.plain) { out.add(line) }
  }
}

extension Int64 {
  /// |self|, with `Int64.min` clamped to `Int64.max`.
  var magnitudeClamped: Int64 { self == .min ? .max : Swift.abs(self) }
}

import ExpenseCore

/// The summary of one currency group as plain sentences, for the Markdown and HTML renderers
/// (the text renderer lays out the same facts to fit its width).
enum SummaryLines {
  static func lines(_ group: CurrencyGroup, _ a: Amounts) -> [String] {
    let total = group.totals.row
    var lines: [String] = []
    if total.spentMinor < 0 {
      var line = "Credit \(a.money(total.spentMinor.magnitudeClamped, group.currency)) (refunds exceed purchases)"
      if let budget = total.budgetMinor { line += ", budget \(a.money(budget, group.currency))" }
      lines.append(line)
    } else {
      if let budget = total.budgetMinor {
        // Like with like: what budgeted categories spent against the budget, the rest apart.
        lines.append(
          "Spent \(a.money(group.totals.budgetedSpentMinor, group.currency)) of \(a.money(budget, group.currency))"
            + " (\(a.percent(total.percentUsed)))")
        if group.totals.unbudgetedSpentMinor != 0 {
          lines.append(
            "Without a budget \(a.money(group.totals.unbudgetedSpentMinor, group.currency))"
              + " · total \(a.money(total.spentMinor, group.currency))")
        }
      } else {
        lines.append("Spent \(a.money(total.spentMinor, group.currency))")
      }
    }
    if let remaining = total.remainingMinor {
      lines.append(
        remaining < 0
          ? "\(a.money(remaining.magnitudeClamped, group.currency)) over"
          : "\(a.money(remaining, group.currency)) left")
    }
    let t = group.totals
    lines.append(
      "\(t.overCount) over, \(t.nearCount) near, \(t.underCount) under, \(t.unbudgetedCount) without budget"
        + (t.aheadCount > 0 ? " (\(t.aheadCount) ahead of pace)" : ""))
    if !group.income.isEmpty {
      let income = Int64(clamping: group.income.reduce(Int128(0)) { $0 + Int128($1.amountMinor) })
      lines.append("Income \(a.money(income, group.currency))")
    }
    if group.unsortedInCount > 0 || group.unsortedInMinor != 0 {
      lines.append(
        "Unsorted money in \(a.money(group.unsortedInMinor, group.currency)) · \(TextRenderer.rows(group.unsortedInCount))"
          + " (sort it: \(TextRenderer.sortCommand), then expenses rules apply)")
    }
    if group.transferCount > 0 || group.transfersMinor != 0 {
      lines.append(
        "Transfers \(a.money(group.transfersMinor.magnitudeClamped, group.currency))"
          + " \(group.transfersMinor < 0 ? "in" : "out") · \(TextRenderer.rows(group.transferCount))")
    }
    if group.amountsCapped { lines.append("Some totals are too large to show and are capped") }
    return lines
  }
}

import ExpenseCore

/// The report as GitHub-flavoured Markdown: headings, a summary list (with the income, unsorted
/// money in and transfers lines), and one table per section. An expanded section is a `##`
/// heading; a collapsed one a `<details>` block that still holds its whole table (viewers such
/// as GitHub's render Markdown inside it after a blank line). Cells are sanitized (one line
/// each) and Markdown-escaped, `|` included, so no bank text can end a cell or start markup.
public struct MarkdownRenderer {
  public let sections: SectionStates

  public init(sections: SectionStates) { self.sections = sections }

  let a = Amounts(ascii: false, short: false, dash: "—")

  public func render(_ report: BudgetReport) -> String {
    var out = ["# \(report.month.longName) budget", "", "As of \(report.today).", ""]
    if report.groups.isEmpty && (report.expenses ?? []).isEmpty {
      out += ["No expenses or budgets for \(report.month.longName).", ""]
      return out.joined(separator: "\n")
    }
    out += ["## Summary", ""]
    for group in report.groups {
      if report.groups.count > 1 { out += ["### \(group.currency.code)", ""] }
      var lines = SummaryLines.lines(group, a)
      var days: [String] = []
      if let left = report.daysLeft { days.append(left == 1 ? "1 day left" : "\(left) days left") }
      if let perDay = group.dailyAllowanceMinor { days.append("\(a.money(perDay, group.currency)) a day") }
      if !days.isEmpty { lines.insert(days.joined(separator: " · "), at: min(2, lines.count)) }
      for line in lines { out.append("- " + MarkdownRenderer.escape(line)) }
      out.append("")
    }
    let bad = report.overCount > 0 ? "\(report.overCount) over" : nil
    out += section(
      .categoryPerformance, heading: "Category Performance vs Budget",
      count: HTMLRenderer.countText("\(report.categoryCount)", bad: bad), body: categoryTables(report))
    if !report.goals.isEmpty {
      let lines = report.goals.map { goal in
        "- \(MarkdownRenderer.escape(goal.goal.name)) (\(MarkdownRenderer.escape(goal.goal.category))): "
          + GoalWords.parts(goal) { a.money($0, $1) }.joined(separator: ", ")
      }
      out += section(.goals, heading: "Goals", count: "(\(report.goals.count))", body: lines + [""])
    }
    if !report.accounts.isEmpty {
      let lines = report.accounts.map { check in
        "- \(MarkdownRenderer.escape(AccountWords.name(check))): "
          + AccountWords.parts(check) { a.money($0, $1) }.joined(separator: ", ")
      }
      out += section(.accounts, heading: "Accounts", count: "(\(report.accounts.count))", body: lines + [""])
    }
    if !report.recurring.isEmpty {
      let lines = RecurringWords.outstanding(report.recurring).map { line, due in
        "- \(MarkdownRenderer.escape(line.name)): "
          + MarkdownRenderer.escape(RecurringWords.parts(line, due) { a.money($0, $1) }.joined(separator: ", "))
      }
      let paid = RecurringWords.paid(report.recurring) { a.money($0, $1) }
      out += section(
        .recurring, heading: "Recurring",
        count: HTMLRenderer.countText("\(report.recurring.count)", bad: RecurringWords.bad(report.recurring)),
        body: lines + paid.map { "- " + MarkdownRenderer.escape($0) } + [""])
    }
    if !report.tags.isEmpty {
      let lines = report.tags.map { line in
        "- \(MarkdownRenderer.escape(line.tag)): "
          + MarkdownRenderer.escape(TagWords.parts(line) { a.money($0, $1) }.joined(separator: ", "))
      }
      out += section(
        .tags, heading: "Tags",
        count: HTMLRenderer.countText("\(TagWords.count(report.tags))", bad: TagWords.bad(report.tags)),
        body: lines + [""])
    }
    out += section(.expenses, heading: "Expenses", count: "(\(report.expenseCount))", body: expenseTable(report))
    let months = report.trends?.months.count ?? 6
    out += section(.trends, heading: "Trends", count: "(\(months) months)", body: trendTable(report))
    return out.joined(separator: "\n")
  }

  /// `## Title (count)` and the body when expanded; a `<details>` block holding it when collapsed.
  func section(_ id: SectionID, heading: String, count: String, body: [String]) -> [String] {
    if sections.isExpanded(id) { return ["## \(heading) \(count)", ""] + body }
    return ["<details><summary>\(id.title) \(count)</summary>", ""] + body + ["</details>", ""]
  }

  func categoryTables(_ report: BudgetReport) -> [String] {
    var out: [String] = []
    for group in report.groups {
      if report.groups.count > 1 { out += ["### \(group.currency.code)", ""] }
      let c = group.currency
      let total = group.totals.row
      let all = group.categories + [total]
      // Budget moved and carried over: columns of their own only when a row has them.
      let moved = all.contains { $0.movedMinor != nil }
      let carried = all.contains { $0.carriedInMinor != nil }
      let extra = (moved ? " Moved |" : "") + (carried ? " Carried |" : "")
      out.append("| Category | Spent | Budget |\(extra) Left | Used | Status | Average | vs avg | Pace | Projected |")
      out.append(
        "|---|---:|---:|" + (moved ? "---:|" : "") + (carried ? "---:|" : "") + "---:|---:|---|---:|---:|---:|---:|")
      for (index, row) in all.enumerated() {
        let isTotal = index == group.categories.count
        var flows: [String] = []
        if moved { flows.append(row.movedMinor.map { a.signed($0, c) } ?? a.dash) }
        if carried { flows.append(row.carriedInMinor.map { a.signed($0, c) } ?? a.dash) }
        let cells =
          [
            isTotal ? "**Total**" : MarkdownRenderer.escape(row.category), a.spent(row.spentMinor, c),
            a.money(row.budgetMinor, c) + (row.period?.suffix ?? ""),
          ]
          + flows + [
            a.money(row.remainingMinor, c), a.percent(row.percentUsed),
            isTotal
              ? "" : row.status == .unbudgeted ? "no budget" : row.status.rawValue + (row.aheadOfPace ? ", ahead" : ""),
            row.trailingAverageMinor.map { a.spent($0, c) } ?? a.dash, a.change(row.changeFromAveragePercent),
            a.money(row.paceMinor, c), row.projectedMinor.map { a.spent($0, c) } ?? a.dash,
          ]
        out.append("| " + cells.joined(separator: " | ") + " |")
      }
      out.append("")
      if carried { out += ["Rollover: left counts what carried in from earlier months.", ""] }
      for note in PeriodWords.notes(
        group.categories, currency: c, name: { MarkdownRenderer.escape($0) }, money: { a.money($0, $1) })
      {
        out += [note + ".", ""]
      }
      for move in group.moves {
        out += [
          "Moved \(a.money(move.amountMinor, c)) from \(MarkdownRenderer.escape(move.from)) to "
            + "\(MarkdownRenderer.escape(move.to)) (#\(move.id)).", "",
        ]
      }
    }
    return out
  }

  func expenseTable(_ report: BudgetReport) -> [String] {
    guard let expenses = report.expenses else { return ["Not loaded.", ""] }
    if expenses.isEmpty { return ["No expenses this month.", ""] }
    var out = ["| Date | Description | Category | Account | Source | Amount |", "|---|---|---|---|---|---:|"]
    for e in expenses {
      let cells = [
        e.date.description, MarkdownRenderer.escape(e.description),
        MarkdownRenderer.escape(e.category ?? uncategorizedName), e.account.map(MarkdownRenderer.escape) ?? a.dash,
        e.source.map { MarkdownRenderer.escape("\($0.file):\($0.line)") } ?? a.dash,
        a.money(e.amount.minor, e.amount.currency),
      ]
      out.append("| " + cells.joined(separator: " | ") + " |")
    }
    return out + [""]
  }

  func trendTable(_ report: BudgetReport) -> [String] {
    guard let trends = report.trends else { return ["Not loaded.", ""] }
    if trends.rows.isEmpty { return ["No spending in these months.", ""] }
    var out = ["| Currency | Category | " + trends.months.map(\.shortName).joined(separator: " | ") + " |"]
    out.append("|---|---|" + trends.months.map { _ in "---:|" }.joined())
    for row in trends.rows {
      out.append(
        "| \(row.currency.code) | \(MarkdownRenderer.escape(row.category)) | "
          + zip(trends.months, row.spentMinor).map { row.hasData($0) ? a.money($1, row.currency) : "no data" }
          .joined(separator: " | ") + " |")
    }
    return out + [""]
  }

  /// Sanitized (a newline becomes a space: one line per cell), with Markdown's active
  /// characters backslash-escaped: `|` cannot end a cell, `<` cannot open HTML, `&` cannot
  /// start an entity.
  static func escape(_ s: String) -> String {
    var out = ""
    for c in TerminalText.sanitize(s) {
      if "\\`*_[]<>|#!~&".contains(c) { out.append("\\") }
      out.append(c)
    }
    return out
  }
}

import ExpenseCore

/// The report as GitHub-flavoured Markdown: a summary list, one table per currency, and the
/// expanded expenses and trends sections. User text is sanitized and Markdown-escaped.
public struct MarkdownRenderer {
  public let sections: SectionStates

  public init(sections: SectionStates) { self.sections = sections }

  public func render(_ report: BudgetReport) -> String {
    let a = Amounts(ascii: false, short: false, dash: "—")
    var out = ["# \(report.month.longName) budget", "", "As of \(report.today).", ""]
    if report.groups.isEmpty {
      out += ["No expenses or budgets for \(report.month.longName).", ""]
    }
    for group in report.groups {
      let total = group.totals.row
      out.append("## \(group.currency.code)")
      out.append("")
      for line in SummaryLines.lines(group, a) { out.append("- " + MarkdownRenderer.escape(line)) }
      out.append("")
      out.append("| Category | Spent | Budget | Left | Used | Status |")
      out.append("|---|---:|---:|---:|---:|---|")
      for row in group.categories + [total] {
        let name = row.category == total.category && row == total ? "**Total**" : MarkdownRenderer.escape(row.category)
        out.append(
          "| \(name) | \(a.spent(row.spentMinor, group.currency)) | \(a.money(row.budgetMinor, group.currency)) | "
            + "\(a.money(row.remainingMinor, group.currency)) | \(a.percent(row.percentUsed)) | "
            + "\(row == total ? "" : row.status.rawValue) |")
      }
      out.append("")
    }
    if sections.isExpanded(.expenses), let expenses = report.expenses {
      out += [
        "## Expenses (\(report.expenseCount))", "", "| Date | Description | Category | Amount |", "|---|---|---|---:|",
      ]
      for e in expenses {
        out.append(
          "| \(e.date) | \(MarkdownRenderer.escape(e.description)) | "
            + "\(MarkdownRenderer.escape(e.category ?? uncategorizedName)) | \(a.money(e.amount.minor, e.amount.currency)) |"
        )
      }
      out.append("")
    }
    if sections.isExpanded(.trends), let trends = report.trends {
      out += ["## Trends", ""]
      out.append("| Currency | Category | " + trends.months.map(\.shortName).joined(separator: " | ") + " |")
      out.append("|---|---|" + trends.months.map { _ in "---:|" }.joined())
      for row in trends.rows {
        out.append(
          "| \(row.currency.code) | \(MarkdownRenderer.escape(row.category)) | "
            + row.spentMinor.map { a.money($0, row.currency) }.joined(separator: " | ") + " |")
      }
      out.append("")
    }
    return out.joined(separator: "\n")
  }

  /// Sanitized, with Markdown's active characters backslash-escaped (`|` cannot end a cell).
  static func escape(_ s: String) -> String {
    var out = ""
    for c in TerminalText.sanitize(s) {
      if "\\`*_[]<>|#!~".contains(c) { out.append("\\") }
      out.append(c)
    }
    return out
  }
}

import ExpenseCore

/// The Expenses and Trends sections of the page: tables that stack into one block per row
/// below their breakpoint (expenses from 36 em, the six-month trends from 60 em are tables).
extension HTMLRenderer {
  func expensesSection(_ report: BudgetReport) -> [String] {
    var body: [String] = []
    if let expenses = report.expenses {
      if expenses.isEmpty {
        body.append("<p>No expenses this month.</p>")
      } else {
        body.append("<table class=\"list stack regular-table\">")
        body.append(
          "<thead><tr><th scope=\"col\">Date</th><th class=\"n\" scope=\"col\">Amount</th>"
            + "<th scope=\"col\">Description</th><th scope=\"col\">Category</th>"
            + "<th scope=\"col\">Account</th><th scope=\"col\">Source</th>"
            + "</tr></thead><tbody>")
        for e in expenses {
          let source = e.source.map { HTMLRenderer.escape("\($0.file):\($0.line)") } ?? amounts.dash
          let account = e.account.map(HTMLRenderer.escape) ?? amounts.dash
          let hook = links != nil ? e.id.map { " data-expense-id=\"\($0)\"" } ?? "" : ""
          body.append(
            "<tr\(hook)><td class=\"n\">\(e.date)</td>"
              + "<td class=\"n amount\">\(HTMLRenderer.escape(amounts.money(e.amount.minor, e.amount.currency)))</td>"
              + "<td class=\"grow\">\(HTMLRenderer.escape(e.description))</td>"
              + "<td data-label=\"Category\">\(HTMLRenderer.escape(e.category ?? uncategorizedName))</td>"
              + "<td data-label=\"Account\">\(account)</td><td data-label=\"Source\">\(source)</td></tr>")
        }
        body.append("</tbody></table>")
      }
    } else {
      body.append("<p>Not loaded.</p>")
    }
    return details(
      .expenses, domID: "expenses", count: HTMLRenderer.countText("\(report.expenseCount)", bad: nil), body: body)
  }

  /// The page's trends: the newest six months at most, which a table holds from 60 em (the
  /// JSON keeps them all); each month's status against its budget as the cell's class.
  static let pageTrendMonths = 6

  func trendsSection(_ report: BudgetReport) -> [String] {
    let months = min(HTMLRenderer.pageTrendMonths, report.trends?.months.count ?? 6)
    var body: [String] = []
    if let all = report.trends, !all.rows.isEmpty, !all.months.isEmpty {
      let skipped = all.months.count - months
      let trends = TrendReport(
        months: Array(all.months.suffix(months)),
        rows: all.rows.map { row in
          var kept = row
          kept.spentMinor = Array(row.spentMinor.suffix(months))
          kept.status = Array(row.status.suffix(max(0, row.status.count - skipped)))
          return kept
        })
      body.append("<table class=\"trends stack wide-table\">")
      body.append(
        "<thead><tr><th scope=\"col\">Category</th>"
          + trends.months.map { "<th class=\"n\" scope=\"col\">\($0.shortName) \($0.year)</th>" }.joined()
          + "</tr></thead><tbody>")
      for row in trends.rows {
        let cells = zip(trends.months, row.spentMinor).enumerated().map { slot, cell in
          let (month, value) = cell
          let text = row.hasData(month) ? amounts.money(value, row.currency) : "no data"
          let status = slot < row.status.count ? row.status[slot] : nil
          let marked = status.map { $0 == .over || $0 == .near ? " \($0.rawValue)" : "" } ?? ""
          return "<td class=\"n\(marked)\" data-label=\"\(month.shortName)\">\(HTMLRenderer.escape(text))</td>"
        }
        body.append(
          "<tr><th class=\"grow\" scope=\"row\">\(HTMLRenderer.escape(row.category))"
            + " <span class=\"muted\">\(row.currency.code)</span></th>" + cells.joined() + "</tr>")
      }
      body.append("</tbody></table>")
    } else if report.trends == nil {
      body.append("<p>Not loaded.</p>")
    } else {
      body.append("<p>No spending in these months.</p>")
    }
    return details(
      .trends, domID: "trends", count: HTMLRenderer.countText("\(months) month\(months == 1 ? "" : "s")", bad: nil),
      body: body)
  }
}

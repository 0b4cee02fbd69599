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

  func trendsSection(_ report: BudgetReport) -> [String] {
    let months = report.trends?.months.count ?? 6
    var body: [String] = []
    if let trends = report.trends, !trends.rows.isEmpty, !trends.months.isEmpty {
      body.append("<table class=\"trends stack wide-table\">")
      body.append(
        "<thead><tr><th scope=\"col\">Category</th>"
          + trends.months.map { "<th class=\"n\" scope=\"col\">\($0.shortName) \($0.year)</th>" }.joined()
          + "</tr></thead><tbody>")
      for row in trends.rows {
        let cells = zip(trends.months, row.spentMinor).map { month, value in
          let text = row.hasData(month) ? amounts.money(value, row.currency) : "no data"
          return "<td class=\"n\" data-label=\"\(month.shortName)\">\(HTMLRenderer.escape(text))</td>"
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

import ExpenseCore

/// The report as one self-contained HTML page. Collapsible sections are `<details>` elements,
/// `open` when expanded; all user text is HTML-escaped.
public struct HTMLRenderer {
  public let sections: SectionStates

  public init(sections: SectionStates) { self.sections = sections }

  public func render(_ report: BudgetReport) -> String {
    let a = Amounts(ascii: false, short: false, dash: "—")
    let title = "\(report.month.longName) budget"
    var out = [
      "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">", "<title>\(title)</title>",
      "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}"
        + "table{border-collapse:collapse}td,th{padding:.2rem .6rem}td.n{text-align:right}"
        + ".over{color:#b00}.near{color:#a60}.under{color:#070}</style>",
      "</head>", "<body>", "<h1>\(title)</h1>", "<p>As of \(report.today).</p>",
    ]
    if report.groups.isEmpty { out.append("<p>No expenses or budgets for \(report.month.longName).</p>") }
    out.append("<details open><summary>Category Performance (\(report.categoryCount))</summary>")
    for group in report.groups {
      out.append("<h2>\(group.currency.code)</h2>")
      out.append("<ul>" + SummaryLines.lines(group, a).map { "<li>\(HTMLRenderer.escape($0))</li>" }.joined() + "</ul>")
      out.append(
        "<table><thead><tr><th>Category</th><th>Spent</th><th>Budget</th><th>Left</th><th>Used</th><th>Status</th></tr></thead><tbody>"
      )
      for row in group.categories + [group.totals.row] {
        let isTotal = row == group.totals.row
        let cls = isTotal ? "" : " class=\"\(row.status.rawValue)\""
        out.append(
          "<tr\(cls)><td>\(isTotal ? "<strong>Total</strong>" : HTMLRenderer.escape(row.category))</td>"
            + "<td class=\"n\">\(HTMLRenderer.escape(a.spent(row.spentMinor, group.currency)))</td>"
            + "<td class=\"n\">\(HTMLRenderer.escape(a.money(row.budgetMinor, group.currency)))</td>"
            + "<td class=\"n\">\(HTMLRenderer.escape(a.money(row.remainingMinor, group.currency)))</td>"
            + "<td class=\"n\">\(a.percent(row.percentUsed))</td><td>\(isTotal ? "" : row.status.rawValue)</td></tr>")
      }
      out.append("</tbody></table>")
    }
    out.append("</details>")
    let expensesOpen = sections.isExpanded(.expenses) ? " open" : ""
    out.append("<details\(expensesOpen)><summary>Expenses (\(report.expenseCount))</summary>")
    if let expenses = report.expenses {
      out.append(
        "<table><thead><tr><th>Date</th><th>Description</th><th>Category</th><th>Amount</th></tr></thead><tbody>")
      for e in expenses {
        out.append(
          "<tr><td>\(e.date)</td><td>\(HTMLRenderer.escape(e.description))</td>"
            + "<td>\(HTMLRenderer.escape(e.category ?? uncategorizedName))</td>"
            + "<td class=\"n\">\(HTMLRenderer.escape(a.money(e.amount.minor, e.amount.currency)))</td></tr>")
      }
      out.append("</tbody></table>")
    }
    out.append("</details>")
    let trendsOpen = sections.isExpanded(.trends) ? " open" : ""
    out.append("<details\(trendsOpen)><summary>Trends (\(report.trends?.months.count ?? 6) months)</summary>")
    if let trends = report.trends {
      out.append(
        "<table><thead><tr><th>Category</th>" + trends.months.map { "<th>\($0.shortName)</th>" }.joined()
          + "</tr></thead><tbody>")
      for row in trends.rows {
        out.append(
          "<tr><td>\(HTMLRenderer.escape(row.category)) (\(row.currency.code))</td>"
            + row.spentMinor.map { "<td class=\"n\">\(HTMLRenderer.escape(a.money($0, row.currency)))</td>" }.joined()
            + "</tr>")
      }
      out.append("</tbody></table>")
    }
    out += ["</details>", "</body>", "</html>", ""]
    return out.joined(separator: "\n")
  }

  /// `&`, `<`, `>`, `"` and `'` as entities; control characters (never valid in HTML text) as U+FFFD.
  static func escape(_ s: String) -> String {
    var out = ""
    // Controls and bidirectional overrides made visible first (one sanitizer for every format).
    for scalar in TerminalText.sanitize(s).unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        let v = scalar.value
        if (v < 0x20 && v != 0x09 && v != 0x0A) || (0x7F..<0xA0).contains(v) {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}

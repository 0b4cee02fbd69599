import ExpenseCore

/// The Category Performance section of the page: cards in a `<details>` on narrow viewports,
/// a static table (with the wide columns from 60 em) on wider ones. Both hold every category.
extension HTMLRenderer {
  func categorySections(_ report: BudgetReport) -> [String] {
    let bad = report.overCount > 0 ? "\(report.overCount) over" : nil
    let count = HTMLRenderer.countText("\(report.categoryCount)", bad: bad)
    var cards: [String] = []
    var tables: [String] = []
    for group in report.groups {
      if report.groups.count > 1 {
        cards.append("<h3>\(group.currency.code)</h3>")
        tables.append("<h3>\(group.currency.code)</h3>")
      }
      cards.append("<ul class=\"cards\">")
      for row in group.categories { cards.append(card(row, group.currency, total: false)) }
      cards.append(card(group.totals.row, group.currency, total: true))
      cards.append("</ul>")
      tables += table(group)
    }
    if report.groups.isEmpty {
      cards.append("<p>No categories this month.</p>")
      tables.append("<p>No categories this month.</p>")
    }
    let narrow = details(
      .categoryPerformance, domID: "category-performance", count: count, extraClass: " only-narrow", body: cards)
    let wide =
      [
        "<section class=\"section only-wide\" id=\"category-performance-table\" data-section=\"category-performance\">",
        "<h2>Category Performance vs Budget <span class=\"count\">\(count)</span></h2>",
      ] + tables + ["</section>"]
    return narrow + wide
  }

  /// Name, percent and status; amounts; a bar (the terminal's compact card).
  func card(_ row: CategoryBenchmark, _ currency: Currency, total: Bool) -> String {
    let name = total ? "Total" : HTMLRenderer.escape(row.category)
    var right: String
    if row.budgetMinor == nil {
      right = total ? "<span class=\"muted\">no budgets</span>" : "<span class=\"muted\">no budget</span>"
    } else {
      right = "<span class=\"pct \(row.status.rawValue)\">\(amounts.percent(row.percentUsed))</span>"
      if !total { right += " " + HTMLRenderer.statusText(row) }
    }
    var html = "<li class=\"card\(total ? " total" : "")\"><div class=\"card-head\"><span class=\"name\">\(name)</span>"
    html += "<span class=\"right\">\(right)</span></div>"
    html += "<div class=\"amounts\">\(amountParts(row, currency).joined(separator: " · "))</div>"
    if let percent = row.percentUsed {
      html += bar(percent, row.status, label: "\(amounts.percent(percent)) of the budget used")
    }
    return html + "</li>"
  }

  /// `$168.40 of $150.00`, `$18.40 over` / `$71.90 left`; unbudgeted: `$45.00 spent`.
  func amountParts(_ row: CategoryBenchmark, _ currency: Currency) -> [String] {
    func amt(_ minor: Int64) -> String {
      "<span class=\"amt\">\(HTMLRenderer.escape(amounts.money(minor, currency)))</span>"
    }
    guard let budget = row.budgetMinor, let remaining = row.remainingMinor else {
      return [row.spentMinor < 0 ? "\(amt(row.spentMinor.magnitudeClamped)) credit" : "\(amt(row.spentMinor)) spent"]
    }
    let spent = HTMLRenderer.escape(amounts.spent(row.spentMinor, currency))
    let left = remaining < 0 ? "\(amt(remaining.magnitudeClamped)) over" : "\(amt(remaining)) left"
    var parts =
      PeriodWords.parts(
        row, money: { "<span class=\"amt\">\(HTMLRenderer.escape(amounts.money($0, $1)))</span>" }, currency: currency)
      ?? ["<span class=\"amt\">\(spent)</span> of \(amt(budget))"]
    if let moved = row.movedMinor { parts.append("\(signed(moved, currency)) moved") }
    if let carried = row.carriedInMinor {
      let from = row.carriedFromMonths?.last.map { " from \($0.shortName)" } ?? " carried"
      parts.append(signed(carried, currency) + from)
    }
    return parts + [left]
  }

  /// A signed amount in a span: `+$40.00`, `-$90.00`.
  func signed(_ minor: Int64, _ currency: Currency) -> String {
    "<span class=\"amt\">\(HTMLRenderer.escape(amounts.signed(minor, currency)))</span>"
  }

  /// The table of one currency group; the average, change, pace and projection columns (class
  /// `x`) only when some row has them, shown from 60 em.
  func table(_ group: CurrencyGroup) -> [String] {
    let rows = group.categories
    let all = rows + [group.totals.row]
    let hasAverage = all.contains { $0.trailingAverageMinor != nil }
    let hasPace = all.contains { $0.paceMinor != nil }
    let hasProjection = all.contains { $0.projectedMinor != nil }
    let months = all.lazy.compactMap(\.averageMonths).first ?? 3
    var head = "<tr><th scope=\"col\">Category</th><th class=\"n\" scope=\"col\">Spent</th>"
    head += "<th class=\"n\" scope=\"col\">Budget</th><th class=\"n\" scope=\"col\">Left</th>"
    head += "<th class=\"n\" scope=\"col\">Used</th>"
    if hasAverage {
      head += "<th class=\"n x\" scope=\"col\">\(months)-mo avg</th><th class=\"n x\" scope=\"col\">vs avg</th>"
    }
    if hasPace { head += "<th class=\"n x\" scope=\"col\">Pace</th>" }
    if hasProjection { head += "<th class=\"n x\" scope=\"col\">Projected</th>" }
    head += "<th class=\"st\" scope=\"col\">Status</th></tr>"
    let c = group.currency
    func cells(_ row: CategoryBenchmark, total: Bool) -> String {
      var html = "<th scope=\"row\">\(total ? "Total" : HTMLRenderer.escape(row.category))</th>"
      html += "<td class=\"n\">\(HTMLRenderer.escape(amounts.spent(row.spentMinor, c)))</td>"
      html +=
        "<td class=\"n\">\(HTMLRenderer.escape(amounts.money(row.budgetMinor, c) + (row.period?.suffix ?? "")))</td>"
      html += "<td class=\"n\">\(HTMLRenderer.escape(amounts.money(row.remainingMinor, c)))</td>"
      html += "<td class=\"n used\"><span class=\"\(row.status.rawValue)\">\(amounts.percent(row.percentUsed))</span>"
      if let percent = row.percentUsed, !total {
        html += bar(percent, row.status, label: "\(amounts.percent(percent)) of the budget used")
      }
      html += "</td>"
      if hasAverage {
        let average = row.trailingAverageMinor.map { amounts.spent($0, c) } ?? amounts.dash
        html += "<td class=\"n x\">\(HTMLRenderer.escape(average))</td>"
        html += "<td class=\"n x\">\(amounts.change(row.changeFromAveragePercent))</td>"
      }
      if hasPace { html += "<td class=\"n x\">\(HTMLRenderer.escape(amounts.money(row.paceMinor, c)))</td>" }
      if hasProjection {
        let projected = row.projectedMinor.map { amounts.spent($0, c) } ?? amounts.dash
        html += "<td class=\"n x\">\(HTMLRenderer.escape(projected))</td>"
      }
      html += "<td class=\"st\">\(total ? "" : HTMLRenderer.statusText(row))</td>"
      return html
    }
    var out = ["<table class=\"perf\">", "<thead>\(head)</thead>", "<tbody>"]
    for row in rows { out.append("<tr class=\"\(row.status.rawValue)-row\">\(cells(row, total: false))</tr>") }
    out += ["</tbody>", "<tfoot><tr>\(cells(group.totals.row, total: true))</tr></tfoot>", "</table>"]
    out += flowNotes(group)
    return out
  }

  /// What carried over and what moved, under the table as sentences that wrap (columns of
  /// their own would widen a table that must fit the page): `Carried in: Groceries +$9.68 from
  /// Oct` and `Moved $50.00 from Dining to Groceries (#1)`.
  func flowNotes(_ group: CurrencyGroup) -> [String] {
    let c = group.currency
    var notes: [String] = []
    let carried = group.categories.compactMap { row -> String? in
      guard let carry = row.carriedInMinor else { return nil }
      let from = row.carriedFromMonths?.last.map { " from \($0.shortName)" } ?? ""
      return "\(HTMLRenderer.escape(row.category)) \(HTMLRenderer.escape(amounts.signed(carry, c)))\(from)"
    }
    if !carried.isEmpty {
      notes.append(
        "<p class=\"note\">Carried in (rollover; left counts it): \(carried.joined(separator: " · "))</p>")
    }
    for note in PeriodWords.notes(
      group.categories, currency: c, name: { HTMLRenderer.escape($0) },
      money: { HTMLRenderer.escape(amounts.money($0, $1)) })
    {
      notes.append("<p class=\"note\">\(note)</p>")
    }
    for move in group.moves {
      notes.append(
        "<p class=\"note\">Moved \(HTMLRenderer.escape(amounts.money(move.amountMinor, c))) from "
          + "\(HTMLRenderer.escape(move.from)) to \(HTMLRenderer.escape(move.to)) (#\(move.id))</p>")
    }
    return notes
  }
}

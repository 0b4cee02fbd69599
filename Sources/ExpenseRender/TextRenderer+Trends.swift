import ExpenseCore

/// The Trends section: six months per category as a sparkline and the latest amount.
extension TextRenderer {
  func renderTrendsSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    let months = report.trends?.months.count ?? 6
    guard sectionHeader(.trends, count: months, noun: "month", bad: nil, c, &out) else { return }
    guard let trends = report.trends else {
      out.add("Not loaded.")
      return
    }
    guard !trends.rows.isEmpty, let first = trends.months.first, let last = trends.months.last else {
      out.add("No spending in these months.")
      return
    }
    let currencies = trends.rows.map(\.currency).reduce(into: [Currency]()) { if !$0.contains($1) { $0.append($1) } }
    let span = "\(first.shortName)-\(last.shortName)"
    for (index, currency) in currencies.enumerated() {
      let rows = trends.rows.filter { $0.currency == currency }
      if currencies.count > 1 {
        if index > 0 { out.blank() }
        out.add(c.currencyHeading(currency))
      }
      if c.plain {
        for row in rows { trendSentence(row, trends.months, c, &out) }
        continue
      }
      var fitted: [String]? = nil
      for short in [false, true] {
        let a = c.amounts(short: short)
        let table = Table(
          columns: [
            .init(
              header: "Category", cells: rows.map { TerminalText.sanitize($0.category) }, align: .left,
              flexible: true, minWidth: 8),
            .init(header: span, cells: rows.map { sparkline($0, trends.months, c.glyphs) }, align: .left),
            .init(
              header: last.shortName, cells: rows.map { latest($0, last, a, c) },
              align: .right),
          ], ellipsis: c.glyphs.ellipsis)
        if let lines = table.lines(width: c.width) {
          fitted = lines
          break
        }
      }
      if let fitted {
        for line in fitted { out.add(line) }
      } else {
        let a = c.amounts(short: true)
        for row in rows {
          out.add(TerminalText.sanitize(row.category))
          out.add("  " + sparkline(row, trends.months, c.glyphs) + " " + latest(row, last, a, c))
        }
      }
    }
  }

  /// The report month's amount, or a dash when it is before the data.
  func latest(_ row: TrendRow, _ month: Month, _ a: Amounts, _ c: TextContext) -> String {
    row.hasData(month) ? a.money(row.spentMinor.last ?? 0, row.currency) : c.glyphs.dash
  }

  /// One cell per month, scaled from zero to the row's largest month; nothing spent is the
  /// lowest level, a month before the data a blank (no data is not "nothing spent").
  func sparkline(_ row: TrendRow, _ months: [Month], _ glyphs: Glyphs) -> String {
    let values = row.spentMinor
    let top = values.max() ?? 0
    let levels = glyphs.spark.count
    return zip(months, values).map { month, value in
      guard row.hasData(month) else { return " " }
      guard top > 0, value > 0 else { return glyphs.spark[0] }
      let level = Int((Int128(value) * Int128(levels - 1) + Int128(top) / 2) / Int128(top))
      return glyphs.spark[max(0, min(levels - 1, level))]
    }.joined()
  }

  func trendSentence(_ row: TrendRow, _ months: [Month], _ c: TextContext, _ out: inout TextOutput) {
    let a = c.amounts(short: false)
    var parts: [String] = []
    for (month, value) in zip(months, row.spentMinor) {
      parts.append("\(month.shortName) \(row.hasData(month) ? a.money(value, row.currency) : "no data")")
    }
    let head = TerminalText.sanitize(row.category) + ":"
    if DisplayWidth.of(head) + 1 <= c.width / 2 {
      out.addFlow(parts, separator: ", ", first: head + " ", rest: "  ")
    } else {
      out.add(head)
      out.addFlow(parts, separator: ", ", first: "  ", rest: "  ")
    }
  }
}

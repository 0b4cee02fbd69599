import ExpenseCore

/// The Trends section: months side by side, each category's amount per month with its status
/// against that month's budget (`▲` over, `●` near), as many of the newest months as fit the
/// width (about 12 at 200 columns, 5 at 100); the wide layout adds the same days of last month
/// (1st-20th against 1st-20th). Where no table of three months fits, a card per category: its
/// name and sparkline, then its months. `--plain` says each month in words.
extension TextRenderer {
  /// Fewer months than this side by side say too little: a card per category instead. (A
  /// category's name keeps 14 cells before a month is given up: "Entertainment" stays whole.)
  static let minimumTrendColumns = 3

  func renderTrendsSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    let shown = report.trends.map { trendMonthsShown($0, c) } ?? 6
    guard sectionHeader(.trends, count: shown, noun: "month", bad: nil, c, &out) else { return }
    guard let trends = report.trends else {
      out.add("Not loaded.")
      return
    }
    guard !trends.rows.isEmpty, !trends.months.isEmpty else {
      out.add("No spending in these months.")
      return
    }
    let currencies = trends.rows.map(\.currency).reduce(into: [Currency]()) { if !$0.contains($1) { $0.append($1) } }
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
      if let table = trendTable(rows, trends, c) {
        for line in table { out.add(line) }
      } else {
        for row in rows { trendCard(row, trends.months, c, &out) }
      }
    }
  }

  /// How many months the section shows at this width: all of them in words or cards, else the
  /// newest that fit side by side (the same for every currency: the widest decides).
  func trendMonthsShown(_ trends: TrendReport, _ c: TextContext) -> Int {
    guard !c.plain, !trends.rows.isEmpty else { return trends.months.count }
    var fewest = trends.months.count
    for currency in Set(trends.rows.map(\.currency)) {
      let rows = trends.rows.filter { $0.currency == currency }
      fewest = min(fewest, trendLayout(rows, trends, c)?.months ?? trends.months.count)
    }
    return fewest
  }

  /// The table of the newest months that fit, or nil when not even three do.
  func trendTable(_ rows: [TrendRow], _ trends: TrendReport, _ c: TextContext) -> [String]? {
    trendLayout(rows, trends, c)?.lines
  }

  private func trendLayout(_ rows: [TrendRow], _ trends: TrendReport, _ c: TextContext) -> (
    months: Int, lines: [String]
  )? {
    let all = trends.months.count
    let minimum = min(all, TextRenderer.minimumTrendColumns)
    for short in [false, true] {
      let a = c.amounts(short: short)
      for count in stride(from: all, through: minimum, by: -1) {
        let months = Array(trends.months.suffix(count))
        var columns: [Table.Column] = [
          .init(
            header: "Category", cells: rows.map { TerminalText.sanitize($0.category) }, align: .left, flexible: true,
            minWidth: 14)
        ]
        for (offset, month) in months.enumerated() {
          let slot = all - count + offset
          columns.append(
            .init(
              header: month.shortName, cells: rows.map { trendCell($0, slot: slot, month: month, a, c) },
              align: .right))
        }
        // Wide: the same days of last month beside this one's.
        if c.size == .wide, let through = trends.sameDaysThrough, let last = trends.months.last {
          let previous = last.adding(months: -1)
          columns.append(
            .init(
              header: "\(previous.shortName) 1-\(through)",
              cells: rows.map { row in row.sameDaysLastMonthMinor.map { a.money($0, row.currency) } ?? c.glyphs.dash },
              align: .right))
        }
        if let lines = Table(columns: columns, ellipsis: c.glyphs.ellipsis).lines(width: c.width) {
          return (count, lines)
        }
      }
    }
    return nil
  }

  /// A month's amount and its status mark (`▲` over, `●` near), or a dash before the data.
  func trendCell(_ row: TrendRow, slot: Int, month: Month, _ a: Amounts, _ c: TextContext) -> String {
    guard row.hasData(month), slot < row.spentMinor.count else { return c.glyphs.dash }
    let amount = a.money(row.spentMinor[slot], row.currency)
    let status = slot < row.status.count ? row.status[slot] : nil
    switch status {
    case .over: return amount + c.glyphs.overMark
    case .near: return amount + c.glyphs.nearMark
    default: return amount + " "
    }
  }

  /// A category as a card: its name and sparkline, then its months, flowed.
  func trendCard(_ row: TrendRow, _ months: [Month], _ c: TextContext, _ out: inout TextOutput) {
    let a = c.amounts(short: true)
    let spark = sparkline(row, months, c.glyphs)
    let name = TerminalText.sanitize(row.category)
    if DisplayWidth.of(name) + 1 + DisplayWidth.of(spark) <= c.width {
      out.add(name + " " + spark)
    } else {
      out.add(DisplayWidth.truncate(name, to: c.width, ellipsis: c.glyphs.ellipsis))
    }
    let parts = months.enumerated().map { slot, month in
      "\(month.shortName) " + trendCell(row, slot: slot, month: month, a, c).trimmingASCIIWhitespace()
    }
    out.addFlow(parts, separator: c.separator, first: "  ", rest: "  ")
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
    for (slot, (month, value)) in zip(months, row.spentMinor).enumerated() {
      var part = "\(month.shortName) \(row.hasData(month) ? a.money(value, row.currency) : "no data")"
      if slot < row.status.count, let status = row.status[slot], status == .over || status == .near {
        part += " (\(status.rawValue))"
      }
      parts.append(part)
    }
    if let through = row.sameDaysLastMonthMinor, let last = months.last {
      parts.append("\(last.adding(months: -1).shortName) to the same day \(a.money(through, row.currency))")
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

import ExpenseCore

/// The Category Performance section: a table in regular and wide widths, cards in compact
/// (and whenever the table cannot fit), one sentence per category in plain mode.
extension TextRenderer {
  func renderCategorySection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    let bad = report.overCount > 0 ? "\(report.overCount) over" : nil
    guard sectionHeader(.categoryPerformance, count: report.categoryCount, noun: "item", bad: bad, c, &out)
    else { return }
    for (index, group) in report.groups.enumerated() {
      if report.groups.count > 1 {
        if index > 0 { out.blank() }
        out.add(c.currencyHeading(group.currency))
      }
      if c.plain {
        for row in group.categories + [group.totals.row] { sentence(row, group.currency, c, &out) }
      } else if c.size != .compact, let lines = table(group, c) {
        for line in lines { out.add(line) }
      } else {
        for row in group.categories { card(row, group.currency, c, &out, total: false) }
        card(group.totals.row, group.currency, c, &out, total: true)
      }
      if let note = totalNote(group.totals, c) { out.addFlow([note], separator: " ") }
      if let note = rolloverNote(group, c) { out.addFlow([note], separator: " ") }
      let a = c.amounts(short: false)
      for note in PeriodWords.notes(
        group.categories, currency: group.currency, name: { TerminalText.sanitize($0) }, money: { a.money($0, $1) })
      {
        out.addFlow([note], separator: " ")
      }
      for move in group.moves {
        let a = c.amounts(short: false)
        let line =
          "Moved \(a.money(move.amountMinor, group.currency)) from \(TerminalText.sanitize(move.from)) to "
          + "\(TerminalText.sanitize(move.to)) (#\(move.id))"
        out.addFlow([line], separator: " ")
      }
    }
  }

  /// Under rollover, what "left" counts: the budget and what carried in, less what was spent.
  func rolloverNote(_ group: CurrencyGroup, _ c: TextContext) -> String? {
    guard group.categories.contains(where: { $0.carriedInMinor != nil }) else { return nil }
    return c.plain
      ? "Under rollover, left counts the budget and what carried in from earlier months, less what was spent."
      : "Rollover: left counts what carried in from earlier months"
  }

  /// What the Total row's figures count, when they count different categories: its spent is
  /// every category's, but its left and % compare the budget with the budgeted categories'
  /// spending only (like with like), so "spent of budget" and "left" do not add up on their own.
  func totalNote(_ totals: BenchmarkTotals, _ c: TextContext) -> String? {
    guard totals.unbudgetedCount > 0, totals.row.budgetMinor != nil else { return nil }
    return c.plain
      ? "The total's spent counts every category; its left and percent used count only the budgeted ones."
      : "Total: spent counts every category; left and % only budgeted ones"
  }

  // MARK: Table

  enum TableColumn: CaseIterable {
    case spent, budget, moved, carried, left, used, bar, average, change, pace, projected, status, statusMark
  }

  /// The table, dropping low-priority columns until it fits: bar, then the wide extras, then the
  /// status word (keeping its mark), then switching to short amounts. `nil`: use cards.
  func table(_ group: CurrencyGroup, _ c: TextContext) -> [String]? {
    let rows = group.categories + [group.totals.row]
    var base: [TableColumn] = [.spent, .budget, .left, .used, .bar]
    if rows.contains(where: { $0.carriedInMinor != nil }) { base.insert(.carried, at: 2) }
    if rows.contains(where: { $0.movedMinor != nil }) { base.insert(.moved, at: 2) }
    if c.size == .wide {
      if rows.contains(where: { $0.trailingAverageMinor != nil }) { base += [.average, .change] }
      if rows.contains(where: { $0.paceMinor != nil }) { base.append(.pace) }
      if rows.contains(where: { $0.projectedMinor != nil }) { base.append(.projected) }
    }
    base.append(.status)
    var candidates: [[TableColumn]] = [base]
    var current = base
    for drop in [TableColumn.bar, .pace, .projected, .change, .average] where current.contains(drop) {
      current.removeAll { $0 == drop }
      candidates.append(current)
    }
    current = current.map { $0 == .status ? .statusMark : $0 }
    candidates.append(current)
    for short in [false, true] {
      // Each column's cells are formatted and measured once, then reused by every candidate.
      var cache: [TableColumn: Table.Column?] = [:]
      let name = tableNameColumn(rows)
      for columns in candidates {
        var table = Table(columns: [name], ellipsis: c.glyphs.ellipsis)
        for column in columns {
          if cache[column] == nil {
            cache[column] = .some(tableColumn(column, rows, currency: group.currency, short: short, c))
          }
          if case .some(.some(let built)) = cache[column] { table.columns.append(built) }
        }
        if var lines = table.lines(width: c.width) {
          if c.options.color, !lines.isEmpty { lines[lines.count - 1] = c.style.bold(lines[lines.count - 1]) }
          return lines
        }
      }
    }
    return nil
  }

  func tableNameColumn(_ rows: [CategoryBenchmark]) -> Table.Column {
    let totalIndex = rows.count - 1
    return Table.Column(
      header: "Category",
      cells: rows.enumerated().map { $0.offset == totalIndex ? "Total" : TerminalText.sanitize($0.element.category) },
      align: .left, flexible: true, minWidth: 12
    ).measured()
  }

  /// One data column of the table (`nil` when it would be empty), measured.
  func tableColumn(
    _ column: TableColumn, _ rows: [CategoryBenchmark], currency: Currency, short: Bool, _ c: TextContext
  ) -> Table.Column? {
    let a = c.amounts(short: short)
    let totalIndex = rows.count - 1
    let built: Table.Column
    switch column {
    case .spent:
      built = .init(header: "Spent", cells: rows.map { a.spent($0.spentMinor, currency) }, align: .right)
    case .budget:
      built = .init(
        header: "Budget", cells: rows.map { a.money($0.budgetMinor, currency) + ($0.period?.suffix ?? "") },
        align: .right)
    case .moved:
      built = .init(
        header: "Moved", cells: rows.map { $0.movedMinor.map { a.signed($0, currency) } ?? a.dash }, align: .right)
    case .carried:
      built = .init(
        header: "Carried", cells: rows.map { $0.carriedInMinor.map { a.signed($0, currency) } ?? a.dash },
        align: .right)
    case .left:
      built = .init(header: "Left", cells: rows.map { a.money($0.remainingMinor, currency) }, align: .right)
    case .used:
      built = .init(
        header: "Used", cells: rows.map { c.style.status($0.status, a.percent($0.percentUsed)) }, align: .right)
    case .bar:
      let cells = rows.enumerated().map { index, row in
        index == totalIndex || row.percentUsed == nil
          ? ""
          : c.style.status(row.status, c.glyphs.bar(tenths: row.percentUsed?.tenths ?? 0, track: 10, fillEmpty: false))
      }
      built = .init(header: "", cells: cells, align: .left)
    case .average:
      let months = rows.lazy.compactMap(\.averageMonths).first ?? 3
      built = .init(
        header: "\(months)-mo avg", cells: rows.map { $0.trailingAverageMinor.map { a.spent($0, currency) } ?? a.dash },
        align: .right)
    case .change:
      built = .init(header: "vs avg", cells: rows.map { a.change($0.changeFromAveragePercent) }, align: .right)
    case .pace:
      built = .init(header: "Pace", cells: rows.map { a.money($0.paceMinor, currency) }, align: .right)
    case .projected:
      built = .init(
        header: "Projected", cells: rows.map { $0.projectedMinor.map { a.spent($0, currency) } ?? a.dash },
        align: .right)
    case .status, .statusMark:
      let cells = rows.enumerated().map { index, row in
        index == totalIndex ? "" : statusLabel(row, c, word: column == .status, under: false)
      }
      guard cells.contains(where: { !$0.isEmpty }) else { return nil }
      built = .init(header: "", cells: cells, align: .left, gap: 1)
    }
    return built.measured()
  }

  /// `▲ over`, `● near`, `✓ under` (or nothing for under in tables), `no budget`; `● ahead`
  /// for a row not over yet but well ahead of its pace; marks only when `word` is false.
  func statusLabel(_ row: CategoryBenchmark, _ c: TextContext, word: Bool, under: Bool) -> String {
    let status = row.status
    if row.aheadOfPace { return c.style.status(.near, word ? "\(c.glyphs.nearMark) ahead" : c.glyphs.nearMark) }
    let text: String
    switch status {
    case .over: text = word ? "\(c.glyphs.overMark) over" : c.glyphs.overMark
    case .near: text = word ? "\(c.glyphs.nearMark) near" : c.glyphs.nearMark
    case .under: text = under ? (word ? "\(c.glyphs.underMark) under" : c.glyphs.underMark) : ""
    case .unbudgeted: text = word ? "no budget" : ""
    }
    return c.style.status(status, text)
  }

  // MARK: Cards

  /// A compact card: name and % with status; amounts; a bar.
  func card(_ row: CategoryBenchmark, _ currency: Currency, _ c: TextContext, _ out: inout TextOutput, total: Bool) {
    let name = total ? c.style.bold("Total") : TerminalText.sanitize(row.category)
    // Percent and status in fixed fields so the percents line up: `112% ▲ over`, ` 82% ● near`.
    var right: String
    if row.budgetMinor == nil {
      right = c.glyphs.dash + " no budget"
    } else {
      let percent = TextLayout.padLeft(row.percentUsed.map { "\($0.rounded)%" } ?? c.glyphs.dash, 4)
      let label = total ? "" : statusLabel(row, c, word: true, under: false)
      right = c.style.status(row.status, percent) + " " + TextLayout.padRight(label, 6)
      if DisplayWidth.of(right) + 5 > c.width { right = c.style.status(row.status, percent) }
    }
    out.add(TextLayout.spread(name, right, width: c.width, ellipsis: c.glyphs.ellipsis, minLeft: 1))

    let indent = "  "
    for short in [false, true] {
      let a = c.amounts(short: short)
      let parts = amountParts(row, currency, a)
      let line = indent + parts.joined(separator: c.separator)
      if DisplayWidth.of(line) <= c.width {
        out.add(line)
        break
      }
      if short {
        out.addFlow(parts, separator: c.separator, first: indent, rest: indent)
      }
    }
    if let percent = row.percentUsed, !c.plain, !total || c.width >= 30 {
      let track = min(max(c.width - 6, 1), 40)
      out.add(indent + c.style.status(row.status, c.glyphs.bar(tenths: percent.tenths, track: track, fillEmpty: true)))
    }
  }

  /// `$168.40 of $150.00`, `$18.40 over` / `$71.90 left`; unbudgeted: `$45.00 spent`.
  func amountParts(_ row: CategoryBenchmark, _ currency: Currency, _ a: Amounts) -> [String] {
    guard let budget = row.budgetMinor, let remaining = row.remainingMinor else {
      let credit = "\(a.money(row.spentMinor.magnitudeClamped, currency)) credit"
      return [row.spentMinor < 0 ? credit : "\(a.money(row.spentMinor, currency)) spent"]
    }
    let left =
      remaining < 0 ? "\(a.money(remaining.magnitudeClamped, currency)) over" : "\(a.money(remaining, currency)) left"
    var parts =
      PeriodWords.parts(row, money: { a.money($0, $1) }, currency: currency)
      ?? ["\(a.spent(row.spentMinor, currency)) of \(a.money(budget, currency))"]
    if let moved = row.movedMinor { parts.append(a.signed(moved, currency) + " moved") }
    if let carried = row.carriedInMinor {
      let from = row.carriedFromMonths?.last.map { " from \($0.shortName)" } ?? " carried"
      parts.append(a.signed(carried, currency) + from)
    }
    return parts + [left]
  }

  // MARK: Plain

  /// One flowed sentence per category for screen readers: state in words, no glyphs.
  func sentence(_ row: CategoryBenchmark, _ currency: Currency, _ c: TextContext, _ out: inout TextOutput) {
    let a = c.amountsFitting([row.spentMinor, row.budgetMinor ?? 0], currency, room: c.width - 4)
    let head = TerminalText.sanitize(row.category) + ":"
    var parts: [String] = []
    switch row.status {
    case .unbudgeted: parts.append("no budget")
    default:
      parts.append((row.percentUsed.map { "\($0.rounded)% used" } ?? "budget 0") + ", " + row.status.rawValue)
      if row.aheadOfPace { parts.append("ahead of pace") }
    }
    parts += amountParts(row, currency, a)
    if c.size == .wide {
      if let average = row.trailingAverageMinor {
        parts.append("\(row.averageMonths ?? 3)-month average \(a.spent(average, currency))")
      }
      if let change = row.changeFromAveragePercent { parts.append("\(a.change(change)) vs average") }
      if let pace = row.paceMinor { parts.append("pace \(a.money(pace, currency))") }
      if let projected = row.projectedMinor {
        let basis = row.projectionBasis == .linear ? " (linear)" : row.projectionBasis == .recorded ? " (as spent)" : ""
        parts.append("projected \(a.spent(projected, currency))\(basis)")
      }
    }
    if DisplayWidth.of(head) + 1 <= c.width / 2 {
      out.addFlow(parts, separator: ", ", first: head + " ", rest: "  ")
    } else {
      out.add(head)
      out.addFlow(parts, separator: ", ", first: "  ", rest: "  ")
    }
  }
}

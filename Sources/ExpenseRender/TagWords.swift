import ExpenseCore

/// A tag in a month's report in words, the same in every format: `trip-lisbon: $1,245.00 of
/// $1,500.00 (83%) · 2026-08-01 to 2026-08-31 · 14 rows this month`, or `costco: $230.10 this
/// month · 4 rows`; and the news a folded header keeps (`trip-lisbon 83%`).
enum TagWords {
  static func parts(_ line: TagLine, money: (Int64, Currency) -> String) -> [String] {
    var parts: [String] = []
    if let budget = line.budgetMinor, let spent = line.budgetSpentMinor, let from = line.budgetFrom,
      let to = line.budgetTo
    {
      parts.append("\(money(spent, line.currency)) of \(money(budget, line.currency)) (\(line.percentUsed ?? 0)%)")
      parts.append("\(from) to \(to)")
      if line.monthCount > 0 { parts.append("\(money(line.monthSpentMinor, line.currency)) this month") }
    } else {
      parts.append("\(money(line.monthSpentMinor, line.currency)) this month")
    }
    parts.append(line.monthCount == 1 ? "1 row" : "\(line.monthCount) rows")
    return parts
  }

  /// The budgeted tag furthest into its budget: `trip-lisbon 83%`.
  static func bad(_ lines: [TagLine]) -> String? {
    let budgeted = lines.filter { $0.percentUsed != nil }
    guard let top = budgeted.max(by: { ($0.percentUsed ?? 0, $1.tag) < ($1.percentUsed ?? 0, $0.tag) }) else {
      return nil
    }
    return "\(top.tag) \(top.percentUsed ?? 0)%"
  }

  /// How many tags the lines name (a tag in two currencies is one tag).
  static func count(_ lines: [TagLine]) -> Int { Set(lines.map(\.tag)).count }
}

extension TextRenderer {
  /// The Tags section: a line (or a few, wrapped) per tag and currency; printed only when a tag
  /// has rows this month or a budget reaching into it.
  func renderTagsSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard !report.tags.isEmpty else { return }
    let count = TagWords.count(report.tags)
    guard sectionHeader(.tags, count: count, noun: "item", bad: TagWords.bad(report.tags), c, &out) else { return }
    let a = c.amounts(short: false)
    let separator = c.plain ? ", " : c.separator
    for line in report.tags {
      let head = TerminalText.sanitize(line.tag) + ":"
      let parts = TagWords.parts(line) { a.money($0, $1) }
      if DisplayWidth.of(head) + 1 <= c.width / 2 {
        out.addFlow(parts, separator: separator, first: head + " ", rest: "  ")
      } else {
        out.addFlow([head], separator: separator)
        out.addFlow(parts, separator: separator, first: "  ", rest: "  ")
      }
    }
  }
}

extension HTMLRenderer {
  /// The Tags section of the page.
  func tagsSection(_ report: BudgetReport) -> [String] {
    guard !report.tags.isEmpty else { return [] }
    var body = ["<ul class=\"tags\">"]
    for line in report.tags {
      let parts = TagWords.parts(line) { amounts.money($0, $1) }
      body.append(
        "<li><span class=\"name\">\(HTMLRenderer.escape(line.tag))</span>: "
          + "\(HTMLRenderer.escape(parts.joined(separator: " · ")))</li>")
    }
    body.append("</ul>")
    return details(
      .tags, domID: "tags",
      count: HTMLRenderer.countText("\(TagWords.count(report.tags))", bad: TagWords.bad(report.tags)), body: body)
  }
}

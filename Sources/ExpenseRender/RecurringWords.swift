import ExpenseCore

/// A recurring series' due date in words, the same in every format: `$2,100.00 due 2026-11-01
/// · monthly · Rent`, or `late since 2026-11-01`; the news a folded header keeps (`3 still due
/// · 1 late`), and what was paid this month.
enum RecurringWords {
  /// The month's due dates not paid: late first, then by date.
  static func outstanding(_ lines: [RecurringLine]) -> [(RecurringLine, RecurringDue)] {
    let all = lines.flatMap { line in line.dues.filter { $0.status != .paid }.map { (line, $0) } }
    return all.sorted { a, b in
      (a.1.status == .late ? 0 : 1, a.1.due, a.0.payee) < (b.1.status == .late ? 0 : 1, b.1.due, b.0.payee)
    }
  }

  static func parts(_ line: RecurringLine, _ due: RecurringDue, money: (Int64, Currency) -> String) -> [String] {
    let when = due.status == .late ? "late since \(due.due)" : "due \(due.due)"
    var parts = ["\(money(due.amountMinor, line.currency)) \(when)", line.interval.rawValue]
    if let category = line.category { parts.append(TerminalText.sanitize(category)) }
    if line.confirmed { parts.append("confirmed") }
    return parts
  }

  static func bad(_ lines: [RecurringLine]) -> String? {
    let due = lines.stillDueCount
    let late = lines.lateCount
    var words: [String] = []
    if due > 0 { words.append("\(due) still due") }
    if late > 0 { words.append("\(late) late") }
    return words.isEmpty ? nil : words.joined(separator: " · ")
  }

  /// `Paid this month: 9 · $2,400.00`, one line per currency with payments, or, with nothing
  /// paid and nothing due, that nothing falls in the month.
  static func paid(_ lines: [RecurringLine], money: (Int64, Currency) -> String) -> [String] {
    var sums: [Currency: (count: Int, minor: Int128)] = [:]
    for line in lines {
      for due in line.dues where due.status == .paid {
        sums[line.currency, default: (0, 0)].count += 1
        sums[line.currency, default: (0, 0)].minor += Int128(due.amountMinor)
      }
    }
    if sums.isEmpty {
      return outstanding(lines).isEmpty ? ["Nothing falls due this month."] : []
    }
    return sums.keys.sorted().map { currency in
      let sum = sums[currency] ?? (0, 0)
      let minor = Int64(clamping: sum.minor)
      return "Paid this month: \(sum.count) · \(money(minor, currency))"
    }
  }
}

extension TextRenderer {
  /// The Recurring section: what is still due this month (late first), one line (or a few,
  /// wrapped) each, then what was paid; printed only when a series was found.
  func renderRecurringSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard !report.recurring.isEmpty else { return }
    let bad = RecurringWords.bad(report.recurring)
    guard sectionHeader(.recurring, count: report.recurring.count, noun: "item", bad: bad, c, &out) else { return }
    let a = c.amounts(short: false)
    let separator = c.plain ? ", " : c.separator
    for (line, due) in RecurringWords.outstanding(report.recurring) {
      let head = TerminalText.sanitize(line.name) + ":"
      let parts = RecurringWords.parts(line, due) { a.money($0, $1) }
      if DisplayWidth.of(head) + 1 <= c.width / 2 {
        out.addFlow(parts, separator: separator, first: head + " ", rest: "  ")
      } else {
        out.addFlow([head], separator: separator)
        out.addFlow(parts, separator: separator, first: "  ", rest: "  ")
      }
    }
    for line in RecurringWords.paid(report.recurring, money: { a.money($0, $1) }) {
      out.addFlow(line.components(separatedBy: " · "), separator: separator)
    }
  }
}

extension HTMLRenderer {
  /// The Recurring section of the page: what is still due, then what was paid.
  func recurringSection(_ report: BudgetReport) -> [String] {
    guard !report.recurring.isEmpty else { return [] }
    var body = ["<ul class=\"recurring\">"]
    for (line, due) in RecurringWords.outstanding(report.recurring) {
      let parts = RecurringWords.parts(line, due) { amounts.money($0, $1) }
      body.append(
        "<li class=\"\(due.status.rawValue)\"><span class=\"name\">\(HTMLRenderer.escape(line.name))</span>: "
          + "\(HTMLRenderer.escape(parts.joined(separator: " · ")))</li>")
    }
    for line in RecurringWords.paid(report.recurring, money: { amounts.money($0, $1) }) {
      body.append("<li>\(HTMLRenderer.escape(line))</li>")
    }
    body.append("</ul>")
    return details(
      .recurring, domID: "recurring",
      count: HTMLRenderer.countText("\(report.recurring.count)", bad: RecurringWords.bad(report.recurring)), body: body)
  }
}

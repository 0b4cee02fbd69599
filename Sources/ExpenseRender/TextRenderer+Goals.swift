import ExpenseCore

/// The Goals section: one line (or a few, wrapped) per goal, what it needs each month and
/// whether it is on track; the collapsed header keeps the bad news (`▶ Goals (3 · 1 behind)`).
/// Printed only when there are goals.
extension TextRenderer {
  func renderGoalsSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard !report.goals.isEmpty else { return }
    let late = report.goals.count { $0.status == .behind || $0.status == .overdue }
    let bad = late > 0 ? "\(late) behind" : nil
    guard sectionHeader(.goals, count: report.goals.count, noun: "item", bad: bad, c, &out) else { return }
    for goal in report.goals {
      let a = c.amounts(short: false)
      let currency = goal.goal.currency
      let head = TerminalText.sanitize(goal.goal.name) + " (" + TerminalText.sanitize(goal.goal.category) + "):"
      var parts = [
        "\(a.money(goal.savedMinor, currency)) of \(a.money(goal.goal.targetMinor, currency)) by "
          + "\(goal.goal.by.shortName) \(goal.goal.by.year)"
      ]
      switch goal.status {
      case .reached: parts.append("reached")
      case .onTrack: parts += ["needs \(a.money(goal.monthlyNeedMinor, currency))/mo", "on track"]
      case .behind:
        parts += [
          "needs \(a.money(goal.monthlyNeedMinor, currency))/mo",
          "\(goal.monthsBehind) month\(goal.monthsBehind == 1 ? "" : "s") behind",
        ]
      case .overdue: parts += ["\(a.money(goal.remainingMinor, currency)) short", "overdue"]
      }
      let separator = c.plain ? ", " : c.separator
      if DisplayWidth.of(head) + 1 <= c.width / 2 {
        out.addFlow(parts, separator: separator, first: head + " ", rest: "  ")
      } else {
        out.add(head)
        out.addFlow(parts, separator: separator, first: "  ", rest: "  ")
      }
    }
  }
}

import ExpenseCore

/// The Goals section: one line (or a few, wrapped) per goal, what it needs each month and
/// whether it is on track; the collapsed header keeps the bad news (`▶ Goals (3 · 1 behind)`).
/// Printed only when there are goals.
extension TextRenderer {
  func renderGoalsSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard !report.goals.isEmpty else { return }
    let late = GoalWords.late(report.goals)
    let bad = late > 0 ? "\(late) behind" : nil
    guard sectionHeader(.goals, count: report.goals.count, noun: "item", bad: bad, c, &out) else { return }
    let a = c.amounts(short: false)
    for goal in report.goals {
      let head = TerminalText.sanitize(goal.goal.name) + " (" + TerminalText.sanitize(goal.goal.category) + "):"
      let parts = GoalWords.parts(goal) { a.money($0, $1) }
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

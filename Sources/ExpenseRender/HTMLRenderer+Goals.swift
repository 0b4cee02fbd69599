import ExpenseCore

/// The Goals section of the page: one line per goal, as the terminal says it; only when there
/// are goals (`goal add`).
extension HTMLRenderer {
  func goalsSection(_ report: BudgetReport) -> [String] {
    guard !report.goals.isEmpty else { return [] }
    let late = GoalWords.late(report.goals)
    var body = ["<ul class=\"goals\">"]
    for goal in report.goals {
      let parts = GoalWords.parts(goal) { amounts.money($0, $1) }
      body.append(
        "<li><span class=\"name\">\(HTMLRenderer.escape(goal.goal.name))</span> ("
          + "\(HTMLRenderer.escape(goal.goal.category))): \(HTMLRenderer.escape(parts.joined(separator: " · ")))</li>")
    }
    body.append("</ul>")
    return details(
      .goals, domID: "goals",
      count: HTMLRenderer.countText("\(report.goals.count)", bad: late > 0 ? "\(late) behind" : nil), body: body)
  }
}

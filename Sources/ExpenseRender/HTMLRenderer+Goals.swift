import ExpenseCore

/// The Goals section of the page: one line per goal, as the terminal says it; only when there
/// are goals (`goal add`).
extension HTMLRenderer {
  func goalsSection(_ report: BudgetReport) -> [String] {
    guard !report.goals.isEmpty else { return [] }
    let late = report.goals.count { $0.status == .behind || $0.status == .overdue }
    var body = ["<ul class=\"goals\">"]
    for goal in report.goals {
      let currency = goal.goal.currency
      var parts = [
        "\(amounts.money(goal.savedMinor, currency)) of \(amounts.money(goal.goal.targetMinor, currency)) by "
          + "\(goal.goal.by.shortName) \(goal.goal.by.year)"
      ]
      switch goal.status {
      case .reached: parts.append("reached")
      case .onTrack: parts += ["needs \(amounts.money(goal.monthlyNeedMinor, currency))/mo", "on track"]
      case .behind:
        parts += [
          "needs \(amounts.money(goal.monthlyNeedMinor, currency))/mo",
          "\(goal.monthsBehind) month\(goal.monthsBehind == 1 ? "" : "s") behind",
        ]
      case .overdue: parts += ["\(amounts.money(goal.remainingMinor, currency)) short", "overdue"]
      }
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

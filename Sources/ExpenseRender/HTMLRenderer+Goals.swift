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

  /// The Accounts section: each account against its bank; only when a statement stated a balance.
  func accountsSection(_ report: BudgetReport) -> [String] {
    guard !report.accounts.isEmpty else { return [] }
    var body = ["<ul class=\"accounts\">"]
    for check in report.accounts {
      let parts = AccountWords.parts(check) { amounts.money($0, $1) }
      body.append(
        "<li><span class=\"name\">\(HTMLRenderer.escape(AccountWords.name(check)))</span>: "
          + "\(HTMLRenderer.escape(parts.joined(separator: " · ")))</li>")
    }
    body.append("</ul>")
    let bad = AccountWords.bad(report.accounts) { amounts.money($0, $1) }
    return details(
      .accounts, domID: "accounts", count: HTMLRenderer.countText("\(report.accounts.count)", bad: bad), body: body)
  }
}

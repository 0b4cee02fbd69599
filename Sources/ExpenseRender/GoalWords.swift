import ExpenseCore

/// A goal in words, the same in every format: `$300.00 of $1,200.00 by Dec 2026`, what it
/// needs and its standing (`needs $450.00/mo`, `on track`; `2 months behind`; `$90.00 short`,
/// `overdue`; `reached`).
public enum GoalWords {
  public static func parts(_ goal: GoalProgress, money: (Int64, Currency) -> String) -> [String] {
    let currency = goal.goal.currency
    var parts = [
      "\(money(goal.savedMinor, currency)) of \(money(goal.goal.targetMinor, currency)) by "
        + "\(goal.goal.by.shortName) \(goal.goal.by.year)"
    ]
    switch goal.status {
    case .reached: parts.append("reached")
    case .onTrack: parts += ["needs \(money(goal.monthlyNeedMinor, currency))/mo", "on track"]
    case .behind:
      parts += [
        "needs \(money(goal.monthlyNeedMinor, currency))/mo",
        "\(goal.monthsBehind) month\(goal.monthsBehind == 1 ? "" : "s") behind",
      ]
    case .overdue: parts += ["\(money(goal.remainingMinor, currency)) short", "overdue"]
    }
    return parts
  }

  /// How many goals are behind or overdue: the bad news a folded header keeps.
  public static func late(_ goals: [GoalProgress]) -> Int {
    goals.count { $0.status == .behind || $0.status == .overdue }
  }
}

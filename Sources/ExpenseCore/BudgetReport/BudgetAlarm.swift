/// What `report --exit-status` exits on, for cron and prompts: a category over its budget (what
/// is available under rollover; the period's amount for a quarterly or yearly budget), or not
/// over yet but projected over it by the month's end.
public struct BudgetAlarm: Hashable, Sendable {
  /// The categories over, as `Currency:Category`-free names in report order.
  public var over: [String]
  /// The categories not over yet whose projection passes what they have.
  public var projectedOver: [String]

  public var isRaised: Bool { !over.isEmpty || !projectedOver.isEmpty }

  /// The exit code of a raised alarm: its own, neither 1 (unclassified failures) nor a
  /// sysexits(3) code (64–78, which errors use), so a script tells "over budget" from "failed".
  public static let exitCode: Int32 = 3
}

extension BudgetReport {
  /// The month's alarm (`BudgetAlarm`), from its rows.
  public var alarm: BudgetAlarm {
    var over: [String] = []
    var projected: [String] = []
    for group in groups {
      for row in group.categories {
        guard let budget = row.budgetMinor else { continue }
        if row.status == .over {
          over.append(row.category)
          continue
        }
        // What the category has: its budget, and what carried in under rollover.
        let has = Int128(budget) + Int128(row.carriedInMinor ?? 0)
        if let projectedMinor = row.projectedMinor, Int128(projectedMinor) > has { projected.append(row.category) }
      }
    }
    return BudgetAlarm(over: over, projectedOver: projected)
  }
}

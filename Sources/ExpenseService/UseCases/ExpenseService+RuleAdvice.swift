import ExpenseCore
import ExpenseStore

/// What a new rule means for the rows already stored: how many `rules apply` would re-sort,
/// and whether its category looks like income while its kind says expense.
public struct RuleAdvice: Sendable, Equatable {
  /// Stored rows the rules would re-categorize now (`rules apply --dry-run`).
  public var wouldChange: Int
  /// Stored rows the rule's pattern matches, and how many of them are money in.
  public var matching: Int
  public var moneyIn: Int
  /// The rule's category is of kind `expense`, yet most rows it matches are money in (a salary
  /// filed as spending would be counted as a refund of it).
  public var looksLikeIncome: Bool

  public init(wouldChange: Int, matching: Int, moneyIn: Int, looksLikeIncome: Bool) {
    self.wouldChange = wouldChange
    self.matching = matching
    self.moneyIn = moneyIn
    self.looksLikeIncome = looksLikeIncome
  }
}

extension ExpenseService {
  /// The advice on `rule`, just added: why a newcomer's `rules add` changed nothing they can
  /// see (the stored rows wait for `rules apply`), and a salary rule into an expense category.
  /// One streaming pass over the stored rows, then the dry run's count.
  public func ruleAdvice(for rule: CategoryRule) throws -> RuleAdvice {
    let matcher = RuleMatcher(rules: [rule])
    var matching = 0
    var moneyIn = 0
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(ExpenseQuery(order: .any)) { row in
        let description = String(decoding: row.description, as: UTF8.self)
        let account = row.account.map { String(decoding: $0, as: UTF8.self) }
        guard matcher.match(description: description, account: account) != nil else { return }
        matching += 1
        if row.amount.minor > 0 { moneyIn += 1 }
      }
    }
    let kind = try store.categoryKinds().first { CategoryName.key($0.key) == CategoryName.key(rule.category) }?.value
    let looksLikeIncome = (kind ?? .expense) == .expense && matching > 0 && moneyIn * 2 > matching
    let wouldChange = try applyRules(dryRun: true).changed
    return RuleAdvice(wouldChange: wouldChange, matching: matching, moneyIn: moneyIn, looksLikeIncome: looksLikeIncome)
  }
}

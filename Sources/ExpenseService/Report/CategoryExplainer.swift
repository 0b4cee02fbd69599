import ExpenseCore
import ExpenseStore

/// Says how each expense got its category, for a row's details (the interactive report's
/// expanded row, `report --details`): the file's column, by hand, which rule, or which row
/// it was paired with as a transfer.
///
/// The store keeps where a category came from (`CategorySource`), not which rule: rules change
/// and `rules apply` re-sorts. So a rule-sorted row is explained by the current rule that gives
/// it that category; when none does (the rule was edited or removed), the words say so.
struct CategoryExplainer {
  let matcher: RuleMatcher
  /// The transfer pairs, by each side's id.
  let pairs: [Int64: TransferPair]

  init(rules: [CategoryRule], pairs: [TransferPair] = []) {
    matcher = RuleMatcher(rules: rules)
    var byID: [Int64: TransferPair] = [:]
    for pair in pairs {
      byID[pair.outId] = pair
      byID[pair.inId] = pair
    }
    self.pairs = byID
  }

  func explain(_ expenses: inout [Expense]) {
    for index in expenses.indices { expenses[index].categorizedBy = words(for: expenses[index]) }
  }

  func words(for expense: Expense) -> String? {
    guard let category = expense.category, let source = expense.categorySource else { return nil }
    switch source {
    case .none: return nil
    case .file: return "the file's category column"
    case .hand: return "set by hand"
    case .transfer:
      guard let id = expense.id, let other = pairs[id]?.partner(of: id) else {
        return "matched as a transfer (the pair was undone)"
      }
      return "a transfer paired with #\(other) (undo: expenses transfers unpair \(id))"
    case .rule:
      if let rule = matcher.match(description: expense.description, account: expense.account),
        CategoryName.key(rule.category) == CategoryName.key(category)
      {
        return "rule \(rule.id): \(rule.field.rawValue) contains '\(rule.pattern)'"
      }
      if let pattern = TransferPatterns.category(description: expense.description),
        CategoryName.key(pattern) == CategoryName.key(category)
      {
        return "the built-in transfer pattern (own-account payments)"
      }
      return "a rule that has since changed"
    }
  }
}

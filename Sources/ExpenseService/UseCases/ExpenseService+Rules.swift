import ExpenseStore

extension ExpenseService {
  public func rules() throws -> [CategoryRule] { try store.rules() }

  /// Rule `id`; `StoreError.ruleNotFound` when there is none.
  public func rule(id: Int64) throws -> CategoryRule {
    guard let rule = try store.rules().first(where: { $0.id == id }) else { throw StoreError.ruleNotFound(id) }
    return rule
  }

  public func addRule(pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try store.addRule(pattern: pattern, category: category, field: field)
  }

  /// Creates or replaces rule `id` (the API's PUT).
  public func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try store.putRule(id: id, pattern: pattern, category: category, field: field)
  }

  public func removeRule(id: Int64) throws { try store.removeRule(id: id) }

  /// Re-categorizes stored rows by the rules; with `dryRun`, counts and writes nothing.
  /// Re-categorizes with the rules (the first matching rule wins) the rows whose category came
  /// from a rule or that have none; categories from the file or typed by hand are never
  /// changed, and rows no rule matches keep theirs. With `dryRun`, counts what would change and
  /// writes nothing. The one policy for every store: a store only streams and updates.
  public func applyRules(dryRun: Bool) throws -> RulesApplyResult {
    let matcher = RuleMatcher(rules: try store.rules())
    var result = RulesApplyResult(changed: 0, byCategory: [:])
    guard !matcher.isEmpty else { return result }
    try store.recategorize(from: [.none, .rule], as: .rule, dryRun: dryRun) { row in
      guard let rule = matcher.match(description: row.description, account: row.account), rule.category != row.category
      else { return nil }
      result.changed += 1
      result.byCategory[rule.category, default: 0] += 1
      return rule.category
    }
    return result
  }
}

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
  public func applyRules(dryRun: Bool) throws -> RulesApplyResult { try store.applyRules(dryRun: dryRun) }
}

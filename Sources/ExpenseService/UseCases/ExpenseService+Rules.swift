import ExpenseCore
import ExpenseStore

extension ExpenseService {
  public func rules() throws -> [CategoryRule] { try store.rules() }

  /// Rule `id`; `StoreError.ruleNotFound` when there is none.
  public func rule(id: Int64) throws -> CategoryRule {
    guard let rule = try store.rules().first(where: { $0.id == id }) else { throw StoreError.ruleNotFound(id) }
    return rule
  }

  /// With `tag`, the tag also takes the rule's matches, past rows and future ones (`--tag`).
  public func addRule(pattern: String, category: String, field: CategoryRule.Field, tag: String? = nil) throws
    -> CategoryRule
  {
    let tagName = try tag.map(TagRecords.name)
    return try recording("rules add") {
      let rule = try store.addRule(pattern: pattern, category: category, field: field)
      var effects: [ChangeEffect] = [.rule(id: rule.id, before: nil, after: rule)]
      if let tagName, let tagged = try tagRule(tagName, rule: rule.id) { effects.append(tagged) }
      return (
        rule,
        "rules add \(rule.id) '\(rule.pattern)' → \(rule.category)" + (tagName.map { " #\($0)" } ?? ""),
        .effect(effects.count == 1 ? effects[0] : .group(effects))
      )
    }
  }

  /// The tags each rule gives its matches, by rule id.
  public func ruleTags() throws -> [Int64: [String]] {
    var byRule: [Int64: [String]] = [:]
    for (name, tag) in try TagRecords.load(store).sorted(by: { $0.key < $1.key }) {
      for rule in tag.body.rules { byRule[rule, default: []].append(name) }
    }
    return byRule
  }

  /// Creates or replaces rule `id` (the API's PUT).
  public func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try recording("rules put") {
      let before = try store.rules().first { $0.id == id }
      let rule = try store.putRule(id: id, pattern: pattern, category: category, field: field)
      let effect: History.Recorded? = before == rule ? nil : .effect(.rule(id: id, before: before, after: rule))
      return (rule, "rules put \(id) '\(rule.pattern)' → \(rule.category)", effect)
    }
  }

  public func removeRule(id: Int64) throws {
    try recording("rules remove") {
      let before = try store.rules().first { $0.id == id }
      try store.removeRule(id: id)
      let summary = "rules remove \(id)" + (before.map { " '\($0.pattern)' → \($0.category)" } ?? "")
      return ((), summary, before.map { .effect(.rule(id: id, before: $0, after: nil)) })
    }
  }

  /// Re-categorizes stored rows by the rules; with `dryRun`, counts and writes nothing.
  /// Re-categorizes with the rules (the first matching rule wins) the rows whose category came
  /// from a rule or that have none; categories from the file or typed by hand are never
  /// changed, and rows no rule matches keep theirs. With `dryRun`, counts what would change and
  /// writes nothing. The one policy for every store: a store only streams and updates.
  public func applyRules(dryRun: Bool) throws -> RulesApplyResult {
    let matcher = RuleMatcher(rules: try store.rules())
    var result = RulesApplyResult(changed: 0, byCategory: [:])
    guard !matcher.isEmpty else { return result }
    if dryRun {
      try store.recategorize(from: [.none, .rule], as: .rule, dryRun: true) { row in
        guard let rule = matcher.match(description: row.description, account: row.account),
          rule.category != row.category
        else { return nil }
        result.changed += 1
        result.byCategory[rule.category, default: 0] += 1
        return rule.category
      }
      return result
    }
    return try recording("rules apply") {
      // What each changed row was, so the history can give it back.
      var was: [Int64: (category: String?, source: CategorySource)] = [:]
      try store.recategorize(from: [.none, .rule], as: .rule, dryRun: false) { row in
        guard let rule = matcher.match(description: row.description, account: row.account),
          rule.category != row.category
        else { return nil }
        result.changed += 1
        result.byCategory[rule.category, default: 0] += 1
        if was.count <= History.changeRowLimit { was[row.id] = (row.category, row.source) }
        return rule.category
      }
      guard result.changed > 0 else { return (result, "", nil) }
      let summary = "rules apply: \(result.changed) rows"
      guard result.changed <= History.changeRowLimit else {
        return (result, summary, .tooBig(rows: result.changed))
      }
      let after = try store.rowSnapshot(ids: was.keys.sorted())
      var before = after
      for index in before.rows.indices {
        guard let old = was[before.rows[index].row.id] else { continue }
        before.rows[index].row.category = old.category
        before.rows[index].row.categorySource = old.source.rawValue
      }
      return (result, summary, .effect(.rows(before: before, after: after)))
    }
  }
}

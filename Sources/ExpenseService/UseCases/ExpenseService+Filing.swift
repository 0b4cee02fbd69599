import ExpenseCore
import ExpenseStore
import Foundation

/// A rule `browse` offers beside a category set by hand: its pattern (the description's
/// leading words) and how many other stored rows it would file now.
public struct RuleOffer: Sendable, Equatable {
  public var pattern: String
  public var category: String
  /// Other rows the rule would re-categorize now (rows whose category came from a rule or
  /// that have none, where this rule is the first that matches).
  public var moreRows: Int
}

/// What filing a row did: the row, the rule added (if any) and how many more rows it filed.
public struct FilingResult: Sendable, Equatable {
  public var expense: Expense
  public var rule: CategoryRule?
  public var moreRows: Int
}

/// Filing one row into a category where the user reads it (`browse`): the category set by
/// hand, and on request a rule for the row's payee applied to the rows it matches, as ONE
/// change of the history (one `undo` takes back both).
extension ExpenseService {
  /// The rule worth offering for row `id` filed into `category`: nil when its description has
  /// no leading words to match on.
  public func ruleOffer(forExpense id: Int64, category: String) throws -> RuleOffer? {
    let row = try expense(id: id)
    guard let pattern = RuleOffer.pattern(from: row.description) else { return nil }
    var names = try store.categoryNames()
    let stored = names.canonical(category) ?? category
    let rule = CategoryRule(id: Int64.max, pattern: pattern, category: stored, field: .description)
    let ids = try matches(of: rule, except: id)
    return RuleOffer(pattern: pattern, category: stored, moreRows: ids.count)
  }

  /// Sets row `id`'s category by hand and, with `rulePattern`, adds the rule and files the rows
  /// it matches (`ruleOffer`'s), all in one transaction and one change.
  public func fileExpense(id: Int64, category: String, rulePattern: String?) throws -> FilingResult {
    try recording("file") {
      var touched = [id]
      var rule: CategoryRule?
      var more: [Int64: String] = [:]
      let edit = ExpenseEdit(category: category)
      if let rulePattern {
        var names = try store.categoryNames()
        let stored = names.canonical(category) ?? category
        let probe = CategoryRule(id: Int64.max, pattern: rulePattern, category: stored, field: .description)
        more = try matches(of: probe, except: id)
        touched += more.keys.sorted()
      }
      let before = try store.rowSnapshot(ids: touched)
      let edited = try store.editExpense(id: id, edit)
      var effects: [ChangeEffect] = []
      if let rulePattern {
        let added = try store.addRule(pattern: rulePattern, category: edited.category ?? category, field: .description)
        rule = added
        effects.append(.rule(id: added.id, before: nil, after: added))
        let targets = more
        try store.recategorize(from: [.none, .rule], as: .rule, dryRun: false) { row in
          targets[row.id] == nil ? nil : added.category
        }
      }
      let after = try store.rowSnapshot(ids: before.ids)
      effects.append(.rows(before: before, after: after))
      var summary = "file \(id) into \(edited.category ?? category)"
      if let rule { summary += " + rule \(rule.id) '\(rule.pattern)' (\(more.count) more rows)" }
      let result = FilingResult(expense: edited, rule: rule, moreRows: more.count)
      return (result, summary, .effect(effects.count == 1 ? effects[0] : .group(effects)))
    }
  }

  /// The stored rows (other than `except`) `rule` would file if added last: a category from a
  /// rule or none, this rule the first that matches, and a category other than its own.
  func matches(of rule: CategoryRule, except: Int64) throws -> [Int64: String] {
    let matcher = RuleMatcher(rules: try store.rules() + [rule])
    var found: [Int64: String] = [:]
    try store.recategorize(from: [.none, .rule], as: .rule, dryRun: true) { row in
      guard row.id != except, let first = matcher.match(description: row.description, account: row.account),
        first.id == rule.id, row.category != rule.category
      else { return nil }
      found[row.id] = rule.category
      return nil
    }
    return found
  }
}

extension RuleOffer {
  /// The description's leading words, the part a bank repeats for a payee: up to the first
  /// digit, `*`, `#` or `/`, at most three words, at least three letters ("UBER *TRIP 8812" →
  /// "UBER", "GREENLEAF GROCERS 0042" → "GREENLEAF GROCERS").
  static func pattern(from description: String) -> String? {
    var words: [Substring] = []
    for word in description.split(separator: " ") {
      if word.contains(where: { $0.isNumber || "*#/".contains($0) }) {
        let head = word.prefix { !$0.isNumber && !"*#/".contains($0) }
        if head.count >= 3 { words.append(head) }
        break
      }
      words.append(word)
      if words.count == 3 { break }
    }
    let pattern = words.joined(separator: " ").trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
    return pattern.filter(\.isLetter).count >= 3 ? pattern : nil
  }
}

import ExpenseCore
import Foundation

/// A categorization rule: rows whose field contains `pattern` (case-insensitive) get `category`.
public struct CategoryRule: Hashable, Sendable, Codable {
  /// Which text of a row a rule looks at.
  public enum Field: String, Sendable, Codable, CaseIterable {
    case description, account
  }
  public var id: Int64
  public var pattern: String
  public var category: String
  public var field: Field

  public init(id: Int64, pattern: String, category: String, field: Field) {
    self.id = id
    self.pattern = pattern
    self.category = category
    self.field = field
  }
}

/// Matches rows against rules in id order; the first rule that matches wins.
///
/// Patterns are case-insensitive substrings, with `*` as a wildcard for any run of characters
/// (`AMZN*MKTP`). Lower-casing is done once per rule, and per row once, not per rule.
public struct RuleMatcher: Sendable {
  let rules: [(rule: CategoryRule, parts: [String])]

  public init(rules: [CategoryRule]) {
    self.rules = rules.sorted { $0.id < $1.id }.map { rule in
      (rule, rule.pattern.lowercased().split(separator: "*", omittingEmptySubsequences: true).map(String.init))
    }
  }

  public var isEmpty: Bool { rules.isEmpty }

  /// The first rule matching the row, if any.
  public func match(description: String, account: String?) -> CategoryRule? {
    guard !rules.isEmpty else { return nil }
    let lowerDescription = description.lowercased()
    let lowerAccount = account?.lowercased()
    for (rule, parts) in rules {
      let text: String?
      switch rule.field {
      case .description: text = lowerDescription
      case .account: text = lowerAccount
      }
      if let text, RuleMatcher.contains(text, parts: parts) { return rule }
    }
    return nil
  }

  /// True when the parts occur in `text` in order (the `*`-separated pieces of a pattern).
  static func contains(_ text: String, parts: [String]) -> Bool {
    guard !parts.isEmpty else { return false }
    var rest = text[...]
    for part in parts {
      guard let range = rest.range(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }
}

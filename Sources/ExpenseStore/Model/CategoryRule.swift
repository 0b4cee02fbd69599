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
  /// Each rule with its lower-cased `*`-separated parts, and their bytes when all are ASCII.
  let rules: [(rule: CategoryRule, parts: [String], ascii: [[UInt8]]?)]

  public init(rules: [CategoryRule]) {
    self.rules = rules.sorted { $0.id < $1.id }.map { rule in
      let parts = rule.pattern.lowercased().split(separator: "*", omittingEmptySubsequences: true).map(String.init)
      let bytes = parts.map { Array($0.utf8) }
      return (rule, parts, bytes.allSatisfy { $0.allSatisfy { $0 < 0x80 } } ? bytes : nil)
    }
  }

  public var isEmpty: Bool { rules.isEmpty }

  /// The first rule matching the row, if any.
  ///
  /// ASCII text against ASCII parts is searched byte by byte; anything else goes through
  /// Foundation's `range(of:)` (which also matches canonically equivalent spellings). Why: on
  /// Linux `range(of:)` costs about 2,000 instructions a call, and every uncategorized row of an
  /// import is tried against every built-in transfer pattern; for ASCII both give the same answer.
  public func match(description: String, account: String?) -> CategoryRule? {
    guard !rules.isEmpty else { return nil }
    let lowerDescription = description.lowercased()
    let lowerAccount = account?.lowercased()
    let descriptionBytes = RuleMatcher.asciiBytes(lowerDescription)
    let accountBytes = lowerAccount.flatMap(RuleMatcher.asciiBytes)
    for (rule, parts, ascii) in rules {
      let text: String?
      let bytes: [UInt8]?
      switch rule.field {
      case .description: (text, bytes) = (lowerDescription, descriptionBytes)
      case .account: (text, bytes) = (lowerAccount, accountBytes)
      }
      guard let text else { continue }
      if let bytes, let ascii {
        if RuleMatcher.contains(bytes, parts: ascii) { return rule }
      } else if RuleMatcher.contains(text, parts: parts) {
        return rule
      }
    }
    return nil
  }

  /// The UTF-8 bytes of `text` if it is all ASCII.
  static func asciiBytes(_ text: String) -> [UInt8]? {
    text.utf8.allSatisfy { $0 < 0x80 } ? Array(text.utf8) : nil
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

  /// `contains` on bytes: the parts occur in `text` in order, each after the previous one.
  static func contains(_ text: [UInt8], parts: [[UInt8]]) -> Bool {
    guard !parts.isEmpty else { return false }
    var start = 0
    for part in parts {
      guard let found = firstIndex(of: part, in: text, from: start) else { return false }
      start = found + part.count
    }
    return true
  }

  static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    if needle.isEmpty { return start }
    guard haystack.count - start >= needle.count else { return nil }
    let first = needle[0]
    var index = start
    while index <= haystack.count - needle.count {
      if haystack[index] == first {
        var offset = 1
        while offset < needle.count && haystack[index + offset] == needle[offset] { offset += 1 }
        if offset == needle.count { return index }
      }
      index += 1
    }
    return nil
  }
}

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
  /// The rules in id order; the arrays below hold, per rule, what matching needs, so the loop
  /// over the rules touches no reference-counted value.
  let rules: [CategoryRule]
  /// Each rule's lower-cased `*`-separated parts.
  let parts: [[String]]
  /// Whether each rule looks at the account (else the description).
  let onAccount: [Bool]
  /// Each rule's first part in `partStarts`/`partCounts`, or -1 when a part is not ASCII.
  let firstPart: [Int]
  /// How many parts each rule has.
  let partCount: [Int]
  /// Every ASCII part's bytes, one after another, and where each starts and how long it is.
  let partBytes: [UInt8]
  let partStarts: [Int]
  let partLengths: [Int]

  public init(rules: [CategoryRule]) {
    let sorted = rules.sorted { $0.id < $1.id }
    var parts: [[String]] = []
    var firstPart: [Int] = []
    var partBytes: [UInt8] = []
    var partStarts: [Int] = []
    var partLengths: [Int] = []
    for rule in sorted {
      let ruleParts = rule.pattern.lowercased().split(separator: "*", omittingEmptySubsequences: true)
        .map(String.init)
      parts.append(ruleParts)
      guard ruleParts.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else {
        firstPart.append(-1)
        continue
      }
      firstPart.append(partStarts.count)
      for part in ruleParts {
        partStarts.append(partBytes.count)
        partLengths.append(part.utf8.count)
        partBytes.append(contentsOf: part.utf8)
      }
    }
    self.rules = sorted
    self.parts = parts
    onAccount = sorted.map { $0.field == .account }
    self.firstPart = firstPart
    partCount = parts.map(\.count)
    self.partBytes = partBytes
    self.partStarts = partStarts
    self.partLengths = partLengths
  }

  public var isEmpty: Bool { rules.isEmpty }

  /// The first rule matching the row, if any.
  ///
  /// ASCII text against ASCII parts is searched byte by byte; anything else goes through
  /// Foundation's `range(of:)` (which also matches canonically equivalent spellings). Why: on
  /// Linux `range(of:)` costs about 2,000 instructions a call, and every uncategorized row of an
  /// import is tried against every built-in transfer pattern; for ASCII both give the same answer.
  ///
  /// Non-ASCII text against ASCII parts is searched byte by byte first, and only a byte match is
  /// asked of Foundation (which may still refuse it, e.g. for a combining accent after the last
  /// letter). A byte miss is a Foundation miss: no non-ASCII character compares equal to an ASCII
  /// one or is skipped in `range(of:)`, except U+037E (equal to `;`) and U+1FEF (equal to a
  /// backtick), so text holding either always goes to Foundation. (Checked over every scalar.)
  public func match(description: String, account: String?) -> CategoryRule? {
    guard !rules.isEmpty else { return nil }
    let lowerDescription = description.lowercased()
    let lowerAccount = account?.lowercased()
    return RuleMatcher.withBytes(lowerDescription) { descriptionBytes in
      let description = Text(string: lowerDescription, bytes: descriptionBytes)
      guard let lowerAccount else { return firstMatch(description, nil) }
      return RuleMatcher.withBytes(lowerAccount) { firstMatch(description, Text(string: lowerAccount, bytes: $0)) }
    }
  }

  func firstMatch(_ description: Text, _ account: Text?) -> CategoryRule? {
    partBytes.withUnsafeBufferPointer { all in
      for r in 0..<rules.count {
        guard let text = onAccount[r] ? account : description else { continue }
        let first = firstPart[r]
        if first >= 0 {
          var start = 0
          var found = partCount[r] > 0
          for p in first..<(first &+ partCount[r]) {
            let needle = UnsafeBufferPointer(rebasing: all[partStarts[p]..<(partStarts[p] &+ partLengths[p])])
            guard let at = RuleMatcher.firstIndex(of: needle, in: text.bytes, from: start) else {
              found = false
              break
            }
            start = at &+ needle.count
          }
          if text.isASCII {
            if found { return rules[r] }
            continue
          }
          if !found && !text.mayEqualASCII { continue }
        }
        if RuleMatcher.contains(text.string, parts: parts[r]) { return rules[r] }
      }
      return nil
    }
  }

  /// A lower-cased text with its UTF-8 bytes, and what the byte search may conclude from them.
  struct Text {
    let string: String
    let bytes: UnsafeBufferPointer<UInt8>
    let isASCII: Bool
    /// Holds U+037E (bytes CD BE) or U+1FEF (E1 BF AF), which Foundation takes for `;` and a
    /// backtick.
    let mayEqualASCII: Bool

    init(string: String, bytes: UnsafeBufferPointer<UInt8>) {
      self.string = string
      self.bytes = bytes
      var ascii = true
      var special = false
      var i = 0
      while i < bytes.count {
        let b = bytes[i]
        if b >= 0x80 {
          ascii = false
          if b == 0xCD && i &+ 1 < bytes.count && bytes[i &+ 1] == 0xBE { special = true }
          if b == 0xE1 && i &+ 2 < bytes.count && bytes[i &+ 1] == 0xBF && bytes[i &+ 2] == 0xAF { special = true }
        }
        i &+= 1
      }
      isASCII = ascii
      mayEqualASCII = special
    }
  }

  /// `body` over the UTF-8 bytes of `text` (in place for a native string).
  static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
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
    return text.withUnsafeBufferPointer { haystack in
      var start = 0
      for part in parts {
        let found = part.withUnsafeBufferPointer { firstIndex(of: $0, in: haystack, from: start) }
        guard let found else { return false }
        start = found + part.count
      }
      return true
    }
  }

  static func firstIndex(
    of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int? {
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

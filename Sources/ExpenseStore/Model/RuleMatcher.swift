import Foundation

/// Matches rows against rules in id order; the first rule that matches wins.
///
/// Patterns are case-insensitive substrings, with `*` as a wildcard for any run of characters
/// (`AMZN*MKTP`). Lower-casing is done once per rule, and per row once, not per rule.
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
/// backtick), so text holding either always goes to Foundation (checked over every scalar).
/// The bytes searched are the text's own with ASCII letters lower-cased: `lowercased()` (slow
/// for non-ASCII text) gives the same runs of ASCII, unless the text holds U+212A (Kelvin, which
/// becomes `k`) or U+0130 (`İ`, which becomes `i` and a dot); such text is lower-cased in full.
public struct RuleMatcher: Sendable {
  /// The rules and what matching needs of each, behind one reference (a matcher is copied
  /// into every call that captures it).
  let store: Store

  final class Store: Sendable {
    /// The rules in id order.
    let rules: [CategoryRule]
    /// Each rule's lower-cased `*`-separated parts.
    let parts: [[String]]
    /// Whether each rule looks at the account (else the description).
    let onAccount: [Bool]
    /// Each rule's first part in `partStarts`/`partLengths`, or -1 when a part is not ASCII.
    let firstPart: [Int]
    /// How many parts each rule has.
    let partCount: [Int]
    /// Every ASCII part's bytes, one after another, and where each starts and how long it is.
    let partBytes: [UInt8]
    let partStarts: [Int]
    let partLengths: [Int]
    /// Per rule, the ASCII bytes its parts hold (one bit each, bytes 0–63 and 64–127): a text
    /// that lacks one of them cannot hold the parts, which spares most searches.
    let needsLow: [UInt64]
    let needsHigh: [UInt64]

    init(rules: [CategoryRule]) {
      let sorted = rules.sorted { $0.id < $1.id }
      var parts: [[String]] = []
      var firstPart: [Int] = []
      var partBytes: [UInt8] = []
      var partStarts: [Int] = []
      var partLengths: [Int] = []
      var needsLow: [UInt64] = []
      var needsHigh: [UInt64] = []
      for rule in sorted {
        let ruleParts = rule.pattern.lowercased().split(separator: "*", omittingEmptySubsequences: true)
          .map(String.init)
        parts.append(ruleParts)
        let (low, high) = RuleMatcher.mask(ruleParts.flatMap(\.utf8))
        needsLow.append(low)
        needsHigh.append(high)
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
      self.needsLow = needsLow
      self.needsHigh = needsHigh
    }
  }

  /// The ASCII bytes among `bytes`, one bit each (bytes 0–63, then 64–127).
  static func mask<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> (UInt64, UInt64) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for b in bytes where b < 0x80 {
      if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b &- 64) }
    }
    return (low, high)
  }

  public init(rules: [CategoryRule]) { store = Store(rules: rules) }

  public var isEmpty: Bool { store.rules.isEmpty }

  /// The first rule matching the row, if any.
  public func match(description: String, account: String?) -> CategoryRule? {
    let store = self.store
    guard !store.rules.isEmpty else { return nil }
    return RuleMatcher.withLowercased(description) { description in
      guard let account else { return store.firstMatch(description, nil) }
      return RuleMatcher.withLowercased(account) { store.firstMatch(description, $0) }
    }
  }

  /// `body` over `text` lower-cased as the search needs it (see the type's notes): the text's
  /// bytes with ASCII letters lower-cased, on the stack, unless it holds U+212A or U+0130.
  static func withLowercased(_ text: String, _ body: (Text) -> CategoryRule?) -> CategoryRule? {
    var done = false
    let answer = text.utf8.withContiguousStorageIfAvailable { bytes -> CategoryRule? in
      guard !Text.changesASCII(bytes) else { return nil }
      done = true
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
        for i in 0..<bytes.count {
          let b = bytes[i]
          buffer[i] = b &- 0x41 < 26 ? b | 0x20 : b
        }
        return body(Text(source: text, lowered: nil, bytes: UnsafeBufferPointer(buffer)))
      }
    }
    if done { return answer ?? nil }
    let lowered = text.lowercased()
    return withBytes(lowered) { body(Text(source: text, lowered: lowered, bytes: $0)) }
  }

  /// A lower-cased text with its UTF-8 bytes, and what the byte search may conclude from them.
  struct Text {
    let source: String
    /// `source.lowercased()`, when it was made already.
    let lowered: String?
    let bytes: UnsafeBufferPointer<UInt8>
    let isASCII: Bool
    /// Holds U+037E (bytes CD BE) or U+1FEF (E1 BF AF), which Foundation takes for `;` and a
    /// backtick.
    let mayEqualASCII: Bool
    /// The ASCII bytes `bytes` holds (see `mask`).
    let hasLow: UInt64
    let hasHigh: UInt64

    /// The lower-cased text, for Foundation's search.
    var string: String { lowered ?? source.lowercased() }

    init(source: String, lowered: String?, bytes: UnsafeBufferPointer<UInt8>) {
      self.source = source
      self.lowered = lowered
      self.bytes = bytes
      var ascii = true
      var special = false
      var low: UInt64 = 0
      var high: UInt64 = 0
      var i = 0
      while i < bytes.count {
        let b = bytes[i]
        if b < 64 {
          low |= 1 << UInt64(b)
        } else if b < 0x80 {
          high |= 1 << UInt64(b &- 64)
        } else {
          ascii = false
          if b == 0xCD && i &+ 1 < bytes.count && bytes[i &+ 1] == 0xBE { special = true }
          if b == 0xE1 && i &+ 2 < bytes.count && bytes[i &+ 1] == 0xBF && bytes[i &+ 2] == 0xAF { special = true }
        }
        i &+= 1
      }
      isASCII = ascii
      mayEqualASCII = special
      hasLow = low
      hasHigh = high
    }

    /// Whether `lowercased()` turns a character of `bytes` into ASCII: U+212A (E2 84 AA) or
    /// U+0130 (C4 B0).
    static func changesASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      var i = 0
      while i < bytes.count {
        let b = bytes[i]
        if b == 0xC4 && i &+ 1 < bytes.count && bytes[i &+ 1] == 0xB0 { return true }
        if b == 0xE2 && i &+ 2 < bytes.count && bytes[i &+ 1] == 0x84 && bytes[i &+ 2] == 0xAA { return true }
        i &+= 1
      }
      return false
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

extension RuleMatcher.Store {
  /// The first rule the texts match.
  func firstMatch(_ description: RuleMatcher.Text, _ account: RuleMatcher.Text?) -> CategoryRule? {
    partBytes.withUnsafeBufferPointer { all in
      for r in 0..<rules.count {
        guard let text = onAccount[r] ? account : description else { continue }
        let first = firstPart[r]
        if first >= 0 {
          var start = 0
          // Every byte of the parts must be in the text for the search to find them.
          let possible = needsLow[r] & ~text.hasLow == 0 && needsHigh[r] & ~text.hasHigh == 0
          var found = possible && partCount[r] > 0
          for p in first..<(first &+ partCount[r]) where found {
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
}

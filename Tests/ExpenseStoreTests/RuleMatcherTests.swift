import Testing

@testable import ExpenseSQLite
@testable import ExpenseStore

/// The byte search for ASCII rows answers exactly as Foundation's `range(of:)` does.
@Suite struct RuleMatcherTests {
  @Test func asciiSearchAgreesWithFoundation() {
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let alphabet = Array("ab -*#")  // few letters: many partial matches and repeats
    func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet[next(alphabet.count)] }) }
    for _ in 0..<3000 {
      let text = word(next(12))
      let parts = word(1 + next(5)).split(separator: "*", omittingEmptySubsequences: true).map(String.init)
      let bytes = RuleMatcher.contains(Array(text.utf8), parts: parts.map { Array($0.utf8) })
      #expect(bytes == RuleMatcher.contains(text, parts: parts), "'\(text)' against \(parts)")
    }
  }

  @Test func nonASCIIRowsStillMatchCanonically() {
    let matcher = RuleMatcher(rules: [CategoryRule(id: 1, pattern: "café", category: "Coffee", field: .description)])
    #expect(matcher.match(description: "CAFE\u{301} DE FLORE", account: nil)?.category == "Coffee")
    let ascii = RuleMatcher(rules: [CategoryRule(id: 1, pattern: "transfer to", category: "T", field: .description)])
    #expect(ascii.match(description: "Online TRANSFER TO savings", account: nil)?.category == "T")
    #expect(ascii.match(description: "transfer", account: nil) == nil)
  }

  /// Non-ASCII rows against ASCII patterns: the byte search that runs first never hides a match
  /// Foundation would find (accents, combining marks, U+037E and U+1FEF, which equal `;` and `` ` ``).
  @Test func nonASCIIRowsAgreeWithFoundation() {
    var state: UInt64 = 0xC0FFEE
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let alphabet = ["a", "b", " ", ";", "`", "é", "e", "\u{301}", "\u{37E}", "\u{1FEF}", "\u{212A}", "k", "İ", "i"]
    func word(_ length: Int) -> String { (0..<length).map { _ in alphabet[next(alphabet.count)] }.joined() }
    let patterns = ["a", "ab", "b a", ";", "`", "a;b", "k", "i", "e", "a*b", "b*;", "`*a"]
    for _ in 0..<3000 {
      let text = word(1 + next(10))
      let pattern = patterns[next(patterns.count)]
      let matcher = RuleMatcher(rules: [CategoryRule(id: 1, pattern: pattern, category: "C", field: .description)])
      let parts = pattern.split(separator: "*").map(String.init)
      let expected = RuleMatcher.contains(text.lowercased(), parts: parts)
      #expect((matcher.match(description: text, account: nil) != nil) == expected, "'\(text)' against \(pattern)")
    }
  }
}

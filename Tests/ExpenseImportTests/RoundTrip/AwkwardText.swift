import TestSupport

/// Payees and memos as banks and people write them: accented Latin, Greek, Cyrillic, CJK,
/// emoji and combining marks, punctuation, digits, and now and then a long one. Each format's
/// writer says which characters its syntax cannot carry in a value, and none is drawn.
enum AwkwardText {
  static let words = [
    "Café", "Grünkram", "Müller-Lüdenscheidt", "Straße", "ŁÓDŹ", "Ærø", "Zoë's", "naïve", "Ελλάδα", "Москва",
    "東京", "スーパー", "서울", "🍕", "👩‍💻", "🇩🇪", "e\u{301}cole", "A/B", "x-y", "R&D", "1<2", "#112", "100%", "(CA)",
    "Ø", "N°5", "€", "$", "£", "CORNER", "GROCERY", "PAYROLL", "Amazon.de", "O'Brien", "\"quoted\"", "a+b", "Rent",
    "Kino", "Bäcker", "Apotheke", "Miete", "Gehalt",
  ]

  /// A text of `count` words drawn from `words` without any of `forbidden`, joined by single
  /// spaces: nothing to trim, nothing any reader may change.
  static func make(_ random: inout SeededRandom, words count: Int, forbidden: Set<Character> = []) -> String {
    let allowed = words.filter { $0.allSatisfy { !forbidden.contains($0) } }
    return (0..<count).map { _ in allowed[random.int(0...(allowed.count - 1))] }.joined(separator: " ")
  }

  /// A payee: a few words, or one time in eight a long one (up to 60 words).
  static func payee(_ random: inout SeededRandom, forbidden: Set<Character> = []) -> String {
    make(&random, words: random.int(1...8) == 1 ? random.int(20...60) : random.int(1...4), forbidden: forbidden)
  }
}

import ExpenseCore
import Foundation
import Testing

@testable import ExpenseRender

/// Rendering is linear in the length of a text: multi-megabyte descriptions (words, one long
/// word, a run of flags, a run of combining marks) render with `--details --expand all` at
/// several widths, every line fitting. Nothing is timed; a quadratic step would make this test
/// take minutes (a 300 KB word alone took 18 s before the wrap was made one pass).
@Suite("Long texts")
struct LongTextTests {
  /// About `bytes` of words of every width class, with control characters among them.
  static func words(bytes: Int) -> String {
    let vocabulary = ["Whole", "Foods", "食費", "☕", "Café", "👩‍👩‍👧", "a\u{7}b", "tab\there", "🇯🇵", "x"]
    var text = ""
    var index = 0
    while text.utf8.count < bytes {
      text += vocabulary[(index &* 7 &+ index / 3) % vocabulary.count] + " "
      index += 1
    }
    return text + "END-OF-WORDS"
  }

  static let descriptions: [(String, String)] = [
    ("words", words(bytes: 2_000_000)),
    ("one word", String(repeating: "abcdefghij", count: 100_000) + "Z"),
    ("wide word", String(repeating: "食", count: 300_000)),
    ("flags", String(repeating: "🇯🇵", count: 100_000)),
    ("combining", "e" + String(repeating: "\u{301}", count: 100_000) + " tail"),
  ]

  @Test(arguments: [20, 80, 200])
  func hugeDescriptionsRenderAndFit(width: Int) throws {
    var report = Fixtures.demo
    report.expenses = LongTextTests.descriptions.enumerated().map { index, item in
      Expense(
        date: Fixtures.date(index + 1), amount: Money(minor: -100, currency: .usd), description: item.1,
        category: item.0, account: "Checking")
    }
    let sections = try SectionStates.resolve(
      saved: [:], expand: ["all"], collapse: [], accordion: false, windowSize: WindowSize(width: width))
    let options = RenderOptions(width: width, details: true, sections: sections)
    let text = TextRenderer(options: options).render(report)
    var lines = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += 1
      let cells = DisplayWidth.of(String(line))
      if cells > width {
        Issue.record("width \(width): a line of \(cells) cells")
        return
      }
    }
    // The details wrap every description in full: its last word is there, and the line count
    // follows the text's length.
    #expect(text.contains("END-OF-WORDS"))
    #expect(text.contains("Z"))
    #expect(lines > 2_000_000 / width / 2)
    #expect(!text.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x09 }, "sanitized")
  }

  @Test func wrapIsOnePassAndLosesNothing() {
    let word = String(repeating: "食", count: 50_001)
    let lines = TextLayout.wrap(word, width: 21, indent: " ")
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 21 })
    #expect(lines.map { $0.dropFirst() }.joined() == word)
    #expect(lines.count == 5_001)
  }

  @Test func aMeasureWithALimitAgreesWithTheFullMeasure() {
    let samples = [
      "Groceries", "食費・外食", "☕ Coffee", "👩‍👩‍👧 Family", "Cafe\u{301}", "🇯🇵🇯🇵🇯", "क्षि देव", "\u{1B}[31mred\u{1B}[0m", "",
    ]
    for sample in samples {
      let full = DisplayWidth.of(sample)
      for limit in 0...(full + 2) {
        let capped = DisplayWidth.of(sample, limit: limit)
        #expect((capped <= limit) == (full <= limit), "\(sample) at \(limit)")
        if full <= limit { #expect(capped == full) }
      }
    }
  }

  @Test func aRunOfFlagsMeasuresLinearly() {
    // Every pair of regional indicators is one flag of 2 cells, however long the run.
    for count in [1, 2, 3, 200_000] {
      let flags = String(repeating: "🇯🇵", count: count)
      #expect(DisplayWidth.of(flags) == 2 * count)
    }
  }
}

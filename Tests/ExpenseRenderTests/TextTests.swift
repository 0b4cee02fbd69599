import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseRender

@Suite("Display width and sanitizing")
struct TextTests {
  @Test(arguments: [
    ("hello", 5), ("", 0), ("食費", 4), ("한국", 4), ("Cafe\u{301}", 4), ("☕", 2), ("🍕x", 3),
    ("👩‍👩‍👧", 2), ("🇯🇵", 2), ("👍🏽", 2), ("❤️", 2), ("❤", 1), ("#️⃣", 2), ("a\u{200B}b", 2), ("ｆｕｌｌ", 8),
    ("\u{1B}[31mred\u{1B}[0m", 3), ("क्षि", 2), ("…─▶▼█", 5),
  ])
  func widths(_ text: String, _ cells: Int) {
    #expect(DisplayWidth.of(text) == cells)
  }

  @Test func truncateKeepsWholeClustersAndFits() {
    #expect(DisplayWidth.truncate("Groceries", to: 20, ellipsis: "…") == "Groceries")
    #expect(DisplayWidth.truncate("Groceries", to: 6, ellipsis: "…") == "Groce…")
    #expect(DisplayWidth.truncate("Groceries", to: 6, ellipsis: "...") == "Gro...")
    #expect(DisplayWidth.truncate("食費食費", to: 5, ellipsis: "…") == "食費…")
    #expect(DisplayWidth.truncate("食費食費", to: 4, ellipsis: "…") == "食…")
    #expect(DisplayWidth.truncate("👩‍👩‍👧 Family", to: 3, ellipsis: "…") == "👩‍👩‍👧…")
    #expect(DisplayWidth.truncate("abc", to: 0, ellipsis: "…") == "")
    #expect(DisplayWidth.truncate("abcdef", to: 2, ellipsis: "...") == "ab")
    for width in 0...12 {
      #expect(DisplayWidth.of(DisplayWidth.truncate("a食b👍🏽c\u{301}d🇯🇵e", to: width, ellipsis: "…")) <= width)
    }
  }

  @Test func sanitizeNeverLeavesControlCharacters() {
    #expect(TerminalText.sanitize("plain text") == "plain text")
    #expect(TerminalText.sanitize("red\u{1B}[31m!") == "red^[[31m!")
    #expect(TerminalText.sanitize("bell\u{07}") == "bell^G")
    #expect(TerminalText.sanitize("del\u{7F}") == "del^?")
    #expect(TerminalText.sanitize("csi\u{9B}2J") == "csiM-^[2J")
    #expect(TerminalText.sanitize("tab\there\nnew\r\nline") == "tab here new  line")
    #expect(TerminalText.sanitize("\u{202E}evil") == "<U+202E>evil")
    #expect(TerminalText.sanitize("食費 ☕ Café") == "食費 ☕ Café")
    var all = ""
    for v in UInt32(0)..<0xA0 { all.unicodeScalars.append(Unicode.Scalar(v)!) }
    let clean = TerminalText.sanitize(all)
    #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
  }

  /// The whole Bidi_Control class, as the standard library's Unicode tables define it (U+061C
  /// ALM, U+200E LRM, U+200F RLM, embeddings, overrides, isolates), is made visible.
  @Test func sanitizeShowsEveryBidiControl() throws {
    var found: [UInt32] = []
    for v in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(v) else { continue }
      #expect(TerminalText.isBidiControl(v) == scalar.properties.isBidiControl, "U+\(String(v, radix: 16))")
      guard scalar.properties.isBidiControl else { continue }
      found.append(v)
      let clean = TerminalText.sanitize("a\(Character(scalar))b")
      #expect(clean == "a<U+\(String(v, radix: 16, uppercase: true))>b")
    }
    #expect(found == [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069])
  }

  @Test func displayWidthAgreesWithTheIndependentChecker() throws {
    let samples = [
      "Groceries", "食費・外食", "☕ Coffee", "👩‍👩‍👧 Family", "Cafe\u{301}", "🇯🇵 Tokyo", "👍🏽 ok", "❤️ love", "#️⃣ tag",
      "한국 식료품", "ｆｕｌｌ", "a\u{200B}b", "क्षि देव", "…─▶▼█▉░▸▲●✓", "ﾊﾝｶｸ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    ]
    for sample in samples {
      let w = DisplayWidth.of(sample)
      #expect(try checkerAccepts(sample + "\n", width: w), "checker measures \(sample) wider than \(w)")
      #expect(try !checkerAccepts(sample + "\n", width: w - 1), "checker measures \(sample) narrower than \(w)")
    }
    print("independent width checks run so far: \(WidthChecker.runs)")
  }
}

/// Runs the independent width checker on `text`; true when every line fits (throws when the
/// checker cannot run, so a missing oracle fails the test).
func checkerAccepts(_ text: String, width: Int) throws -> Bool { try WidthChecker.fits(text, width: width) }

import Foundation
import Testing

@testable import ExpenseCore

/// `TextFold` against its definition, Foundation's folding of the whole text: texts drawn from
/// the table's scalars, ASCII, CJK ideographs and scalars the table leaves to Foundation
/// (combining marks, emoji, half-width forms, Hangul), and bytes that are not UTF-8.
@Suite struct TextFoldTests {
  /// A seeded generator: the same texts on every run.
  struct Seeded {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static let tableScalars: [Unicode.Scalar] = ScalarFolds.blocks.flatMap { block in
    block.compactMap(Unicode.Scalar.init).filter(ScalarFolds.foldsAlone)
  }
  static let others: [Unicode.Scalar] = [
    0x301, 0x308, 0x20DD, 0x1F600, 0xFF76, 0xFF9E, 0xAC00, 0x1100, 0x1161, 0x200D, 0xFB01, 0x2460, 0x5B4, 0xE49,
  ].compactMap(Unicode.Scalar.init)
  static let ascii: [Unicode.Scalar] = (0x20...0x7E).compactMap(Unicode.Scalar.init)

  @Test func everyScalarOfTheTableFoldsAsFoundationFoldsIt() {
    #expect(Self.tableScalars.count > 1_500)
    for scalar in Self.tableScalars {
      let text = String(Character(scalar))
      #expect(TextFold.fold(text) == TextFold.foundation(text), "U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test func everyPairFoldsAsFoundationFoldsIt() {
    // A scalar beside every other: where folding one text is not folding each scalar, a pair
    // shows it (a mark joining its letter, a final sigma, a voiced kana).
    let pool = Self.tableScalars + Self.ascii + Self.others
    var random = Seeded(state: 3)
    for first in Self.tableScalars {
      for _ in 0..<40 {
        var text = String(Character(first))
        text.unicodeScalars.append(pool[random.next(pool.count)])
        #expect(TextFold.fold(text) == TextFold.foundation(text), "\(text.unicodeScalars.map(\.value))")
      }
    }
  }

  @Test func randomTextsFoldAsFoundationFoldsThem() {
    let ideographs = (0x4E00...0x4E40).compactMap(Unicode.Scalar.init)
    let pools = [Self.tableScalars + Self.ascii, Self.tableScalars + Self.ascii + ideographs + Self.others]
    var random = Seeded(state: 11)
    for round in 0..<40_000 {
      let pool = pools[round % 2]
      var text = ""
      for _ in 0..<(1 + random.next(12)) { text.unicodeScalars.append(pool[random.next(pool.count)]) }
      #expect(TextFold.fold(text) == TextFold.foundation(text), "\(text.unicodeScalars.map(\.value))")
    }
  }

  @Test func everyIdeographFoldsToItself() {
    for value in ScalarFolds.ideographs {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = String(Character(scalar))
      #expect(TextFold.foundation(text) == text, "U+\(String(value, radix: 16))")
    }
  }

  @Test func bytesThatAreNotUTF8FoldAsFoundationFoldsTheirRepair() {
    let cases: [[UInt8]] = [
      [0x43, 0x41, 0x46, 0xC9], [0xC3], [0xC3, 0x28], [0xE2, 0x82], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
      [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80, 0x41], [0xFF, 0x41],
    ]
    for bytes in cases {
      var out: [UInt8] = []
      bytes.withUnsafeBufferPointer { TextFold.append($0, to: &out) }
      let expected = TextFold.foundation(String(decoding: bytes, as: UTF8.self))
      #expect(String(decoding: out, as: UTF8.self) == expected, "\(bytes)")
    }
  }

  @Test func aSearchFindsTheFoldedNeedleInEveryScript() {
    func finds(_ needle: String, _ text: String) -> Bool {
      ExpenseRow.withRow(
        of: Expense(
          date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: -100, currency: .usd),
          description: text)
      ) { ExpenseFilter(text: needle).matches($0) }
    }
    #expect(finds("cafe", "CAFÉ MÜLLER"))
    #expect(finds("пятерочка", "ПЯТЁРОЧКА 1234 МОСКВА"))
    #expect(finds("οδος", "ΟΔΟΣ 5"))
    #expect(finds("pho", "Phở Hà Nội"))
    #expect(finds("東京", "セブン 東京駅"))
    #expect(finds("e\u{301}", "CAFE"), "a needle's mark is folded away too")
    #expect(!finds("пятерочка", "PYATEROCHKA"), "an ASCII text never holds a needle that is not")
    #expect(finds("cafe", "CAF\u{301}E"), "a mark is dropped wherever it stands, as NFKD's marks are")
  }
}

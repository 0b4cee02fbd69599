import ExpenseCore
import Testing

@testable import ExpenseRender

/// `import --preview` output fits every width and keeps what the file says visible but harmless.
@Suite struct ImportPreviewTests {
  static func preview(_ text: String) -> ImportPreview {
    let date = CivilDate(year: 2026, month: 10, day: 13)!
    return ImportPreview(
      file: "/home/someone/Downloads/\(text)-export-2026.csv",
      settings: [
        .init(name: "encoding", value: "utf-8", source: "valid UTF-8"),
        .init(name: "currency", value: "EUR", source: "the header \"Bedrag (EUR) \(text)\""),
        .init(name: "amounts", value: "one amount column, negative = money out", source: "detected"),
      ],
      columns: [
        .init(index: 1, name: "Datum", role: "date", samples: ["20261013", "20261014"]),
        .init(index: 2, name: text, role: "description", samples: [text, text + text]),
        .init(index: 3, name: "Bedrag (EUR)", role: "amount", samples: ["-1.234,56", "99.999.999,99"]),
      ],
      rows: [
        .init(
          line: 2, date: date, amountMinor: -123_456, currency: "EUR", description: text, category: "Food",
          rule: text, duplicate: false),
        .init(
          line: 3, date: date, amountMinor: 9_999_999_999, currency: "EUR", description: text + " " + text,
          category: nil, rule: nil, duplicate: true),
      ], newRows: 1, duplicates: 1, excluded: 0, rejected: 0, warnings: ["a warning about \(text)"])
  }

  @Test(arguments: ["Albert Heijn", "山田下社 株式会社 東京", "Caf\u{1B}[31mé\u{07}", "👩‍👩‍👧 family 🇫🇮", "x"])
  func everyLineFitsEveryWidth(_ text: String) {
    let model = Self.preview(text)
    for width in 20...140 {
      for glyphs in [GlyphSet.unicode, .ascii] {
        let output = ImportPreviewRenderer(width: width, glyphs: glyphs).render(model)
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
          #expect(DisplayWidth.of(String(line)) <= width, "width \(width): \(line)")
        }
        #expect(!output.contains("\u{1B}") && !output.contains("\u{07}"), "no raw control characters")
      }
    }
  }

  @Test func itShowsWhereEachSettingCameFrom() {
    let output = ImportPreviewRenderer(width: 100, glyphs: .unicode).render(Self.preview("Albert Heijn"))
    #expect(output.contains("currency  EUR (the header \"Bedrag (EUR) Albert Heijn\")"))
    #expect(output.contains("Bedrag (EUR)") && output.contains("-1.234,56"))
    #expect(output.contains("Food (rule \"Albert Heijn\")"))
    #expect(output.contains("[duplicate]"))
  }
}

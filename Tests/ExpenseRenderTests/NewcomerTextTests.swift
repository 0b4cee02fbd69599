import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseRender

/// What a newcomer reads in the text outputs: the Total row says what it counts, plain mode
/// counts in words, the list shows ids, and fitted text keeps a number with its unit.
@Suite struct NewcomerTextTests {
  /// The text's words, line breaks and indents made single spaces.
  static func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

  static let note = "Total: spent counts every category; left and % only budgeted ones"
  static let plainNote =
    "The total's spent counts every category; its left and percent used count only the budgeted ones."

  @Test func theTotalRowSaysWhatItCountsAtEveryWidth() throws {
    let expanded = try SectionStates.resolve(
      saved: [:], expand: ["all"], collapse: [], accordion: false, windowSize: .compact)
    for (name, report) in [("demo", Fixtures.demo), ("many", Fixtures.many), ("two", Fixtures.twoCurrencies)] {
      let mixed = report.groups.filter { $0.totals.unbudgetedCount > 0 && $0.totals.row.budgetMinor != nil }.count
      #expect(mixed > 0, "\(name) has budgeted and unbudgeted categories")
      for width in 20...200 {
        for (plain, glyphs) in [(false, GlyphSet.unicode), (false, .ascii), (true, .unicode)] {
          let options = RenderOptions(width: width, glyphs: glyphs, plain: plain, sections: expanded)
          let text = TextRenderer(options: options).render(report)
          let said = Self.words(text).components(separatedBy: plain ? Self.plainNote : Self.note).count - 1
          #expect(said == mixed, "\(name) at \(width) plain \(plain): the note \(said) times\n\(text)")
          for line in text.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= width, "\(name) at \(width): \(line)")
          }
        }
      }
    }
    // With every category budgeted (or none), the figures count the same rows: no note.
    #expect(!TextRenderer(options: RenderOptions(width: 80)).render(Fixtures.empty).contains("Total:"))
  }

  @Test func theNoteFitsAsTheOracleMeasures() throws {
    for width in [20, 21, 31, 40, 59, 60, 80, 132, 200] {
      let text = TextRenderer(options: RenderOptions(width: width)).render(Fixtures.many)
      let verdict = try WidthChecker.check(text, width: width)
      #expect(verdict.fits, "\(width): \(verdict.report)")
    }
  }

  @Test func plainModeCountsCurrenciesInWords() {
    for width in [20, 40, 80, 132] {
      let text = TextRenderer(options: RenderOptions(width: width, plain: true)).render(Fixtures.twoCurrencies)
      #expect(Self.words(text).contains("Summary, expanded, 2 currencies"), "\(width)\n\(text)")
      #expect(!text.contains("currencys"))
    }
    #expect(TextContext.counted(1, "currency") == "1 currency")
    #expect(TextContext.counted(6, "month") == "6 months")
    #expect(TextContext.counted(2, "day") == "2 days")
  }

  @Test func theListShowsEveryIdAtEveryWidth() throws {
    let expenses = try #require(Fixtures.demo.expenses).enumerated().map { index, expense in
      var stored = expense
      stored.id = Int64(index * 937 + 1)
      return stored
    }
    for width in 20...200 {
      for glyphs in [GlyphSet.unicode, .ascii] {
        let text = ExpenseListRenderer(width: width, glyphs: glyphs, ids: true).render(expenses)
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        for expense in expenses {
          let id = try #require(expense.id)
          #expect(words.contains(String(id)), "\(width): id \(id) missing\n\(text)")
        }
        for line in text.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= width) }
      }
    }
    // Without ids (the report's expenses section) the list is as before.
    #expect(!ExpenseListRenderer(width: 80, glyphs: .unicode).render(expenses).hasPrefix(" Id"))
  }

  /// A padded `label:   value` line folds under its value, or below its label when the value
  /// would be too narrow: its values stay in one column.
  @Test func fittedTextKeepsPaddedValuesInOneColumn() {
    let block = [
      "  encoding:      windows-1252 (the OFX header says CHARSET:1252)",
      "  statement:     bank (STMTRS)", "  account:       000123456789 (BANKACCTFROM/ACCTID)",
    ]
    for width in 20...80 {
      let lines = block.flatMap { FittedText.fit(line: $0, width: width) }
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(lines)")
      // Every value line (a label's or a continuation) starts in one column.
      let starts = Set(
        lines.compactMap { line -> Int? in
          let afterLabel = line.range(of: ":  ").map { line[$0.upperBound...] } ?? line[...]
          guard let first = afterLabel.firstIndex(where: { $0 != " " }), !line.hasSuffix(":") else { return nil }
          return line.distance(from: line.startIndex, to: first)
        })
      #expect(starts.count == 1, "\(width): \(lines.joined(separator: "\n"))")
    }
  }

  @Test func fittedTextKeepsANumberWithItsUnit() {
    let line = "Imported a-long-file-name.csv: 1 new, 0 duplicates, 0 excluded, 0 rejected in 0.04\u{00A0}s"
    for width in 20...90 {
      let lines = FittedText.fit(line: line, width: width)
      #expect(lines.contains { $0.contains("0.04 s") }, "\(width): \(lines)")
      #expect(!lines.joined().contains("\u{00A0}"), "\(width): printed as a plain space")
      #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(lines)")
    }
    // A word with its unit longer than a line is still cut to fit.
    #expect(FittedText.fit(line: "abcdefgh\u{00A0}s", width: 4).allSatisfy { DisplayWidth.of($0) <= 4 })
  }
}

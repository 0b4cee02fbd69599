import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseRender

/// The streaming renderers write the bytes of the array renderers: random expenses (names from
/// every tricky pool, amounts from zero to the extremes, several currencies, with and without
/// ids, categories, accounts and sources) are rendered both ways and compared byte for byte,
/// through an `OutputBuffer` with small blocks so that draining is exercised too.
@Suite struct StreamingRenderTests {
  /// Texts that hit each path: plain ASCII, simple non-ASCII, text that needs sanitizing,
  /// formula starts, quotes, commas, backslashes, semicolons, wide and joining characters.
  static let texts = [
    "Coffee", "", " ", "=SUM(A1)", "+1", "-x", "@home", "say \"hi\"", "a, b", "back\\slash", "semi;colon",
    "trailing   ", "Café Müller", "SNCF — TGV", "Noodle Bar 麺", "한국어", "Ｆｕｌｌ", "«Roma»", "e\u{301}",
    "👩‍👩‍👧", "🇩🇪", "\u{1B}[31mred", "\tTab", "\rCR", "a\nb", "\u{202E}gpj.exe", "\u{9B}csi", "sep\u{2028}",
    "\u{7F}", "ZW\u{200D}J", "soft\u{AD}hyphen", "क्ष", "x;\"\\,=", String(repeating: "long ", count: 30),
    String(repeating: "Ж", count: 70), "\"", "\\", ";", "A", "\u{61C}mark", "\u{2066}iso",
  ]

  static let currencies: [Currency] = [.usd, .eur, .jpy, Currency(code: "BHD")!, Currency(code: "CNY")!]

  /// With `extremes`, amounts reach `Int64.min` and `Int64.max` (in every currency).
  static func expenses(seed: UInt64, count: Int, extremes: Bool = true) -> [Expense] {
    var rng = SeededRandom(state: seed)
    func pick<T>(_ values: [T]) -> T { values[rng.int(0...values.count - 1)] }
    return (0..<count).map { index in
      let amount: Int64 =
        switch rng.int(0...5) {
        case 0: 0
        case 1: Int64(rng.int(-100_000...100_000))
        case 2: -Int64(rng.int(0...2_000_000_000))
        case 3:
          extremes
            ? pick([Int64.min, Int64.max, -9_000_000_000_000_000, 999_949, 999_950, 99_999_999])
            : pick([-9_000_000_000_000, 999_949, 999_950, 99_999_999, 1_000_000_000_000])
        default: -Int64(rng.int(1...50_000))
        }
      var expense = Expense(
        id: rng.int(0...9) == 0 ? nil : Int64(rng.int(1...1_000_000)),
        date: CivilDate(year: rng.int(1990...2030), month: rng.int(1...12), day: rng.int(1...28))!,
        amount: Money(minor: amount, currency: pick(currencies)),
        description: pick(texts) + (rng.int(0...2) == 0 ? " \(index)" : ""),
        category: rng.int(0...3) == 0 ? nil : pick(texts + ["Groceries", "Transfers", "Salary"]),
        account: rng.int(0...2) == 0 ? pick(texts) : nil,
        source: rng.int(0...3) == 0 ? nil : Expense.Source(file: pick(texts + ["bank.csv"]), line: rng.int(-1...99_999))
      )
      if rng.int(0...4) == 0 { expense.categorizedBy = "rule 1" }
      return expense
    }
  }

  /// Collects the blocks `OutputBuffer` drains.
  final class Sink {
    var bytes: [UInt8] = []
    var blocks = 0
    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  static func render(blockSize: Int = 97, _ write: (inout OutputBuffer) throws -> Void) rethrows -> String {
    let sink = Sink()
    var out = OutputBuffer(blockSize: blockSize) { block in
      sink.bytes.append(contentsOf: block)
      sink.blocks += 1
    }
    try write(&out)
    try? out.flush()
    return sink.text
  }

  /// Each expense as a row, in turn.
  static func rows(_ expenses: [Expense], _ body: (ExpenseRow) throws -> Void) rethrows {
    for expense in expenses { try ExpenseRow.withRow(of: expense, body) }
  }

  @Test(arguments: 0..<12)
  func csvAndJSONAreTheArrayRenderersBytes(seed: Int) throws {
    let expenses = StreamingRenderTests.expenses(seed: UInt64(seed), count: seed == 0 ? 0 : 40 * seed)
    let csv = try StreamingRenderTests.render { out in
      ExpenseCSVStream.writeHeader(into: &out)
      try StreamingRenderTests.rows(expenses) { row in
        ExpenseCSVStream.write(row, into: &out)
        try out.endRow()
      }
    }
    #expect(csv == ExpenseCSVRenderer.render(expenses))
    let json = try StreamingRenderTests.render { out in
      var stream = ExpenseJSONStream()
      try StreamingRenderTests.rows(expenses) { row in
        stream.write(row, into: &out)
        try out.endRow()
      }
      stream.finish(into: &out)
    }
    #expect(json == ExpenseResource.json(expenses))
  }

  /// (Without the extremes of `Int64`: `Money.formatShort` traps on them, in `render` too.)
  @Test(arguments: 0..<8)
  func theTextListIsTheRenderersAtEveryWidth(seed: Int) throws {
    let expenses = StreamingRenderTests.expenses(
      seed: UInt64(100 + seed), count: seed == 0 ? 0 : 15 * seed, extremes: false)
    var rng = SeededRandom(state: UInt64(seed))
    for width in [1, 20, 21, 24, 27, 28, 30, 36, 45, 59, 60, 72, 99, 100, 140] {
      for (glyphs, ids) in [(GlyphSet.unicode, false), (.ascii, false), (.unicode, true), (.ascii, true)] {
        let renderer = ExpenseListRenderer(width: width, glyphs: glyphs, ids: ids)
        // The measuring passes see the rows in another order than the printing pass.
        let measured = expenses.shuffled(using: &rng)
        let streamed = try StreamingRenderTests.render { out in
          var list = ExpenseListStream(renderer: renderer)
          StreamingRenderTests.rows(measured) { list.measure($0) }
          if list.needsShortAmounts { StreamingRenderTests.rows(measured) { list.measureShortAmount($0) } }
          list.writeHeader(into: &out)
          try StreamingRenderTests.rows(expenses) { row in
            list.write(row, into: &out)
            try out.endRow()
          }
        }
        #expect(streamed == renderer.render(expenses), "width \(width) \(glyphs) ids \(ids) seed \(seed)")
      }
    }
  }

  @Test(arguments: 0..<6)
  func journalsAreTheRenderersBytes(seed: Int) throws {
    let expenses = StreamingRenderTests.expenses(seed: UInt64(200 + seed), count: seed == 0 ? 0 : 30 * seed)
      .sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
    let budgets = [
      Budget(category: "Groceries", amount: Money(minor: 40_000, currency: .usd)),
      Budget(category: "Groceries", amount: Money(minor: 50_000, currency: .usd), month: Month(year: 2026, month: 3)),
      Budget(category: "=SUM(A1)", amount: Money(minor: 1_000, currency: .eur)),
    ]
    let kinds: [String: CategoryKind] = ["Salary": .income, "semi;colon": .transfer]
    for firstDay in [nil, CivilDate(year: 1995, month: 1, day: 1)] {
      let input = ExportInput(expenses: expenses, kinds: kinds, budgets: seed == 1 ? [] : budgets, firstDay: firstDay)
      for format in [JournalStream.Format.ledger, .beancount] {
        let streamed = try StreamingRenderTests.render { out in
          var journal = JournalStream(format: format, kinds: kinds, budgets: input.budgets, firstDay: firstDay)
          StreamingRenderTests.rows(expenses.reversed()) { journal.measure($0) }
          journal.writeHeader(into: &out)
          try StreamingRenderTests.rows(expenses) { row in
            journal.write(row, into: &out)
            try out.endRow()
          }
        }
        let rendered = format == .ledger ? LedgerRenderer().render(input) : BeancountRenderer().render(input)
        #expect(streamed == rendered, "\(format) seed \(seed)")
      }
    }
  }

  /// Every scalar's JSON string, written by the stream, is what JSONEncoder and `SafeJSON`
  /// write (compared through a whole expense object, a thousand scalars at a time).
  @Test func jsonStringsEscapeEveryScalarAsTheEncoder() throws {
    var scalars = (0...0x10FFF).compactMap(Unicode.Scalar.init)
    scalars += (0x1F000...0x1FAFF).compactMap(Unicode.Scalar.init)
    for start in stride(from: 0, to: scalars.count, by: 1000) {
      var text = String.UnicodeScalarView()
      text.append(contentsOf: scalars[start..<min(start + 1000, scalars.count)])
      let expense = Expense(
        id: 1, date: CivilDate(year: 2026, month: 10, day: 1)!, amount: Money(minor: -1, currency: .usd),
        description: String(text))
      let streamed = StreamingRenderTests.render { out in
        var stream = ExpenseJSONStream()
        ExpenseRow.withRow(of: expense) { stream.write($0, into: &out) }
        stream.finish(into: &out)
      }
      #expect(streamed == ExpenseResource.json([expense]), "scalars from U+\(String(scalars[start].value, radix: 16))")
    }
  }

  /// `TextBytes` says a text needs sanitizing exactly when `TerminalText.sanitize` changes it,
  /// and plain ASCII exactly when `DisplayWidth.isPlainASCII` holds.
  @Test func textKindsAgreeWithTheSanitizer() {
    var rng = SeededRandom(state: 42)
    for _ in 0..<3000 {
      var text = ""
      for _ in 0..<rng.int(0...24) {
        text += StreamingRenderTests.texts[rng.int(0...StreamingRenderTests.texts.count - 1)].prefix(3)
      }
      var copy = text
      let kind = copy.withUTF8 { TextBytes.kind($0) }
      #expect((kind == .needsSanitizing) == (TerminalText.sanitize(text) != text), "\(text.debugDescription)")
      #expect((kind == .plainASCII) == DisplayWidth.isPlainASCII(text), "\(text.debugDescription)")
      let (_, special) = copy.withUTF8 { TextBytes.scan($0, UInt8(ascii: "\""), UInt8(ascii: ",")) }
      if kind != .needsSanitizing {
        #expect(special == (text.contains("\"") || text.contains(",")), "\(text.debugDescription)")
      }
    }
  }

  /// Each scalar `SimpleText` allows is a grapheme cluster of its own, whatever stands beside
  /// it, and as wide as `DisplayWidth` says; random simple texts measure and cut as
  /// `DisplayWidth.of` and `truncate` do.
  @Test func simpleTextMeasuresAndCutsAsDisplayWidth() {
    var allowed: [Unicode.Scalar] = []
    for range in SimpleText.allowed {
      for value in range {
        guard let scalar = Unicode.Scalar(value), let cells = SimpleText.cellsIfSimple(value) else { continue }
        allowed.append(scalar)
        let alone = String(scalar)
        #expect(DisplayWidth.of(alone) == cells, "U+\(String(value, radix: 16))")
        for neighbour in ["a", "\u{E9}", "\u{AC00}"] {
          let pair = alone + neighbour + alone
          #expect(pair.count == pair.unicodeScalars.count, "U+\(String(value, radix: 16)) beside \(neighbour)")
        }
      }
    }
    var rng = SeededRandom(state: 7)
    let ascii = (0x20...0x7E).compactMap(Unicode.Scalar.init)
    for _ in 0..<4000 {
      var view = String.UnicodeScalarView()
      for _ in 0..<rng.int(0...30) {
        view.append(rng.int(0...2) == 0 ? allowed[rng.int(0...allowed.count - 1)] : ascii[rng.int(0...ascii.count - 1)])
      }
      let text = String(view)
      var copy = text
      let limit = rng.int(0...40)
      let width = copy.withUTF8 { SimpleText.width($0, limit: limit) }
      #expect(width == DisplayWidth.of(text, limit: limit), "\(text.debugDescription) limit \(limit)")
      let full = copy.withUTF8 { SimpleText.width($0) } ?? -1
      #expect(full == DisplayWidth.of(text))
      for ellipsis in ["…", "..."] {
        let cells = rng.int(0...35)
        let cut = StreamingRenderTests.render { out in
          copy.withUTF8 {
            SimpleText.appendCell(
              $0, width: full, cells: cells, ellipsis: ellipsis, ellipsisWidth: DisplayWidth.of(ellipsis), into: &out)
          }
        }
        let expected = TextLayout.padRight(DisplayWidth.truncate(text, to: cells, ellipsis: ellipsis), cells)
        #expect(cut == expected, "\(text.debugDescription) to \(cells)")
      }
    }
  }

  /// Numbers written as bytes are `Money`'s and `String`'s: every exponent, every sign, the
  /// extremes of `Int64`.
  @Test func amountsAndIntegersAreMoneysText() {
    var rng = SeededRandom(state: 3)
    var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, 999, 1000, 1001, 123_456_789, Int64.min, Int64.max, Int64.min + 1]
    for _ in 0..<3000 { values.append(Int64(bitPattern: rng.next()) >> Int64(rng.int(0...63))) }
    for value in values {
      #expect(StreamingRenderTests.render { $0.appendInteger(value) } == String(value))
      for code in ["JPY", "USD", "BHD", "CLF"] {
        let money = Money(minor: value, currency: Currency(code: code)!)
        let units = money.currency.minorUnits
        #expect(StreamingRenderTests.render { $0.appendAmount(value, minorUnits: units) } == money.decimalString)
        // `Money.format` is the sign, the symbol (or code and space), then these digits.
        let grouped = StreamingRenderTests.render { $0.appendAmount(value, minorUnits: units, grouped: true) }
        let prefix = money.currency.symbol ?? money.currency.code + " "
        #expect(
          (value < 0 ? "-" : "") + prefix + grouped.drop { $0 == "-" }
            == Money.format(minor: value, currency: money.currency))
      }
    }
  }

  /// Blocks go out whole once full; a row bigger than a block is drained in one piece and the
  /// buffer goes back to its size; nothing is lost or repeated.
  @Test func theBufferDrainsWholeBlocks() throws {
    let sink = Sink()
    var sizes: [Int] = []
    var out = OutputBuffer(blockSize: 64) { block in
      sink.bytes.append(contentsOf: block)
      sizes.append(block.count)
    }
    var expected: [UInt8] = []
    for index in 0..<500 {
      let piece = index == 250 ? String(repeating: "z", count: 10_000) : "row \(index);"
      out.append(piece)
      expected += Array(piece.utf8)
      try out.endRow()
    }
    try out.flush()
    #expect(sink.bytes == expected)
    #expect(sizes.dropLast().allSatisfy { $0 >= 64 })
    #expect(sizes.contains(where: { $0 > 10_000 }))
  }
}

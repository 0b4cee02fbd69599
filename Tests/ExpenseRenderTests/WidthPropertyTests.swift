import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseRender

/// The shared generator under the name these tests use.
typealias SeededGenerator = SeededRandom

/// Random reports: any Unicode in names (CJK, emoji, combining marks, controls), amounts up to
/// 10^12 minor units, 0–200 categories, one or two currencies, random expenses and trends.
enum RandomReports {
  static let pools: [[String]] = [
    ["a", "b", "Z", "q", " ", "-", "&", "'", "7", "x", "é", "ß"],
    ["食", "費", "外", "交", "通", "한", "국", "ｆ", "ｕ", "ﾊ", "ﾝ"],
    ["☕", "🍕", "👩‍👩‍👧", "🇯🇵", "👍🏽", "❤️", "#️⃣", "🧑🏿‍🚀", "✈", "🏳️‍🌈"],
    ["\u{301}", "\u{308}", "\u{200D}", "\u{FE0F}", "\u{200B}", "\u{94D}", "क", "ष"],
    ["\u{1B}", "\u{1B}[31m", "\u{07}", "\u{7F}", "\u{9B}", "\t", "\n", "\r\n", "\u{0}", "\u{202E}", "\u{2028}"],
  ]

  static func name(_ rng: inout SeededGenerator) -> String {
    let length = Int.random(in: 0...40, using: &rng)
    var s = ""
    for _ in 0..<length {
      let pool = pools[Int.random(in: 0..<pools.count, using: &rng)]
      s += pool[Int.random(in: 0..<pool.count, using: &rng)]
    }
    return s
  }

  static func amount(_ rng: inout SeededGenerator) -> Int64 {
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: return Int64.random(in: 0...10_000, using: &rng)
    case 1: return Int64.random(in: 0...10_000_000, using: &rng)
    case 2: return Int64.random(in: 0...1_000_000_000_000, using: &rng)
    default: return [0, 1, 999_999_999_999, 1_000_000_000_000][Int.random(in: 0..<4, using: &rng)]
    }
  }

  static func report(seed: UInt64) -> (BudgetReport, [RenderOptions]) {
    var rng = SeededGenerator(state: seed)
    let month = Month(year: 2026, month: 10)!
    let today = CivilDate(year: 2026, month: Int.random(in: 9...11, using: &rng), day: 20)!
    let currencies: [Currency] = [.usd, .eur, .jpy, Currency(code: "BHD")!, Currency(code: "CHF")!]
    let groupCount = Int.random(in: 1...2, using: &rng)
    let chosen = Array(currencies.shuffled(using: &rng).prefix(groupCount))
    let categoryCount = [0, 1, 3, 8, 20, 40, 200][Int.random(in: 0..<7, using: &rng)]
    var totals: [CategoryMonthTotal] = []
    var budgets: [Budget] = []
    var kinds: [String: CategoryKind] = [:]  // some income and transfers: their own summary lines
    for index in 0..<categoryCount {
      let currency = chosen[index % chosen.count]
      let name = name(&rng) + (Bool.random(using: &rng) ? "" : " \(index)")
      let outflow = amount(&rng)
      let inflow = Int.random(in: 0..<5, using: &rng) == 0 ? amount(&rng) : 0
      totals.append(
        CategoryMonthTotal(
          currency: currency, category: name.isEmpty ? nil : name, month: month, outflowMinor: outflow,
          inflowMinor: inflow, count: Int.random(in: 1...500, using: &rng), inflowCount: inflow > 0 ? 1 : 0))
      if Int.random(in: 0..<6, using: &rng) == 0 { kinds[name] = Bool.random(using: &rng) ? .income : .transfer }
      if Bool.random(using: &rng) {
        let out = amount(&rng)
        totals.append(
          CategoryMonthTotal(
            currency: currency, category: name, month: month.adding(months: -Int.random(in: 1...5, using: &rng)),
            outflowMinor: out, inflowMinor: 0, count: 1,
            dailyOutflowMinor: (1...31).map { $0 == 1 + Int(out % 28) ? out : 0 }))
      }
      if Int.random(in: 0..<4, using: &rng) > 0 {
        budgets.append(Budget(category: name, amount: Money(minor: amount(&rng), currency: currency)))
      }
    }
    // Rollover on some budgets (a carry in, or overspending carried), and budget moved between
    // some, with the long and odd names above: the Carried and Moved figures and the move lines.
    var rollovers: [Rollover] = []
    var moves: [BudgetMove] = []
    for budget in budgets where Int.random(in: 0..<3, using: &rng) == 0 {
      rollovers.append(
        Rollover(
          category: budget.category, currency: budget.amount.currency,
          mode: Bool.random(using: &rng) ? .all : .surplus,
          since: month.adding(months: -Int.random(in: 1...5, using: &rng))))
    }
    for index in 0..<min(budgets.count / 2, 4) where Bool.random(using: &rng) {
      let (from, to) = (budgets[2 * index], budgets[2 * index + 1])
      guard from.amount.currency == to.amount.currency else { continue }
      moves.append(
        BudgetMove(
          id: Int64(index + 1), month: month, currency: from.amount.currency, amountMinor: max(1, amount(&rng)),
          from: from.category, to: to.category, madeAt: "2026-10-01T00:00:00Z"))
    }
    // Some budgets without rollover by the quarter or the year: the `/yr` budget cells, the
    // card's year so far and the notes under the table.
    let rolled = Set(rollovers.map { "\($0.currency.code):\($0.category)" })
    var periods: [CategoryPeriod] = []
    for budget in budgets
    where !rolled.contains("\(budget.amount.currency.code):\(budget.category)")
      && Int.random(in: 0..<3, using: &rng) == 0
    {
      periods.append(
        CategoryPeriod(
          category: budget.category, currency: budget.amount.currency,
          period: Bool.random(using: &rng) ? .year : .quarter))
    }
    let calculator = BenchmarkCalculator(today: today)
    var report = calculator.report(
      for: month,
      input: .init(
        totals: totals, budgets: budgets, kinds: kinds,
        historyStart: Dictionary(uniqueKeysWithValues: chosen.map { ($0, month.adding(months: -4)) }),
        rollovers: rollovers, moves: moves, periods: periods))
    if Bool.random(using: &rng) {
      report.expenses = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
        Expense(
          date: CivilDate(year: 2026, month: 10, day: Int.random(in: 1...31, using: &rng))!,
          amount: Money(
            minor: amount(&rng) * (Bool.random(using: &rng) ? -1 : 1), currency: chosen.randomElement(using: &rng)!),
          description: name(&rng), category: Bool.random(using: &rng) ? name(&rng) : nil,
          account: Bool.random(using: &rng) ? name(&rng) : nil,
          source: Bool.random(using: &rng)
            ? .init(file: name(&rng) + ".csv", line: Int.random(in: 1...99999, using: &rng)) : nil)
      }
    }
    if Bool.random(using: &rng) { report.trends = calculator.trends(ending: month, totals: totals, kinds: kinds) }
    // Goals with the odd names, in every standing.
    for index in 0..<[0, 1, 3][Int.random(in: 0..<3, using: &rng)] {
      let goal = Goal(
        id: Int64(index + 1), name: name(&rng), category: name(&rng), currency: chosen[index % chosen.count],
        targetMinor: max(1, amount(&rng)), by: month.adding(months: Int.random(in: -2...30, using: &rng)),
        since: month.adding(months: -Int.random(in: 0...6, using: &rng)))
      report.goals.append(GoalProgress(goal: goal, month: month, saved: amount(&rng) / 2))
    }
    for index in report.groups.indices where Int.random(in: 0..<8, using: &rng) == 0 {
      report.groups[index].amountsCapped = true
    }

    var options: [RenderOptions] = []
    for _ in 0..<2 {
      let ids = SectionID.allCases.map(\.rawValue) + ["all"]
      let expand = (0..<Int.random(in: 0...2, using: &rng)).map { _ in ids.randomElement(using: &rng)! }
      let foldable = ids.filter { $0 != SectionID.summary.rawValue }  // collapsing the summary is an error
      let collapse = (0..<Int.random(in: 0...2, using: &rng)).map { _ in foldable.randomElement(using: &rng)! }
      let accordion = Bool.random(using: &rng)
      let size = [WindowSize.compact, .regular, .wide].randomElement(using: &rng)!
      let states = try! SectionStates.resolve(
        saved: [.expenses: Bool.random(using: &rng), .trends: Bool.random(using: &rng)], expand: expand,
        collapse: collapse, accordion: accordion, windowSize: size)
      options.append(
        RenderOptions(
          width: 0, glyphs: Bool.random(using: &rng) ? .unicode : .ascii,
          plain: Int.random(in: 0..<4, using: &rng) == 0,
          color: Bool.random(using: &rng), details: Bool.random(using: &rng), sections: states))
    }
    return (report, options)
  }
}

/// Lines of `text` split on LF only (what a terminal does), with ANSI escapes left in.
func outputLines(_ text: String) -> [String] {
  text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
}

/// The reports a run draws: `RENDER_PROPERTY_COUNT` of them (each rendered at up to 221 widths,
/// twice over), from the seeds after `RENDER_PROPERTY_SEED`. The seeds are fixed by default, so
/// every run of the suite checks the same reports and a red run names a seed that reproduces;
/// explore with another `RENDER_PROPERTY_SEED`. (The seed is not shrunk: a smaller seed is just
/// another random report, and shrinking one rendered hundreds of reports to no purpose.)
let propertySeeds: [UInt64] = {
  let environment = ProcessInfo.processInfo.environment
  let count = Int(environment["RENDER_PROPERTY_COUNT"] ?? "") ?? 8
  let base = UInt64(environment["RENDER_PROPERTY_SEED"] ?? "") ?? 0x5EED_2026
  var rng = SeededGenerator(state: base)
  // 7788: a name that starts with a virama, which wcwidth releases measure differently.
  return [7788] + (0..<max(0, count)).map { _ in rng.next() }
}()

@Suite("Width property")
struct WidthPropertyTests {
  @Test(arguments: propertySeeds) func everyLineFitsAtEveryWidth(seed: UInt64) {
    let (report, variants) = RandomReports.report(seed: seed)
    // Every width for most reports. A report of 200 categories (one draw in seven) takes about
    // half a second per render in a debug build, so it is rendered at the widths where the
    // layout changes (20 to 24, the width classes' edges, 240) and a few between: a run's length
    // no longer depends on how often the draws hit it.
    let widths =
      report.categoryCount > 40
      ? [20, 21, 22, 23, 24, 33, 37, 59, 60, 74, 99, 100, 146, 199, 200, 240] : Array(20...240)
    for (variantIndex, base) in variants.enumerated() {
      for width in widths {
        var options = base
        options.width = width
        let text = TextRenderer(options: options).render(report)
        for line in outputLines(text) where DisplayWidth.of(line) > width {
          Issue.record("seed \(seed) variant \(variantIndex) width \(width): \(DisplayWidth.of(line)) cells: \(line)")
          return
        }
        #expect(
          !text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\u{1B}") || (0x7F..<0xA0).contains($0.value)
          })
        if !options.color { #expect(!text.contains("\u{1B}")) }
        if width % 37 == 0 {
          #expect(TextRenderer(options: options).render(report) == text, "not deterministic: seed \(seed)")
        }
        if width % 73 == 20 {
          #expect((try? checkerAccepts(text, width: width)) == true, "checker rejects seed \(seed) width \(width)")
        }
      }
    }
    // The one-line report (`report --brief`): one line, never wider, at every width.
    for width in 20...240 {
      for glyphs in [GlyphSet.unicode, .ascii] {
        let line = BriefRenderer(width: width, glyphs: glyphs).render(report)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" }, "seed \(seed) width \(width)")
        #expect(DisplayWidth.of(String(line.dropLast())) <= width, "brief seed \(seed) width \(width): \(line)")
      }
    }
    for width in [20, 33, 59, 60, 99, 100, 240] {
      let list = ExpenseListRenderer(width: width, glyphs: .unicode).render(report.expenses ?? [])
      for line in outputLines(list) where DisplayWidth.of(line) > width {
        Issue.record("expense list seed \(seed) width \(width): \(line)")
      }
    }
  }

  @Test func narrowWidthsDoNotCrash() {
    for width in [-5, 0, 1, 2, 5, 10, 19] {
      for (_, report) in Fixtures.all {
        let text = TextRenderer(options: RenderOptions(width: width, details: true)).render(report)
        #expect(!text.isEmpty)
      }
    }
  }
}

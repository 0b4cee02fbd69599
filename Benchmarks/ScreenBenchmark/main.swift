// The interactive report's frame time on a month of 10,000 expense rows (docs/performance.md: Interactive
// report). Not a test: it prints median and p99 per operation; the target is under 5 ms a frame.
//
//   swift build -c release --static-swift-stdlib --scratch-path .build-rel --product screen-benchmark
//   .build-rel/release/screen-benchmark [rows] [width] [height]
import ExpenseCore
import ExpenseInteractive
import ExpenseRender

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rows = arguments.count > 0 ? arguments[0] : 10_000
let width = arguments.count > 1 ? arguments[1] : 120
let height = arguments.count > 2 ? arguments[2] : 40

/// A month of `count` rows over eight categories, with the texts a bank export has (accents,
/// CJK, a flag), aggregated by the same calculator the CLI uses.
func sampleReport(count: Int) -> BudgetReport {
  let month = Month(year: 2026, month: 10)!
  let categories = ["Groceries", "Dining out", "Transport", "Rent", "Utilities", "Shopping", "Coffee", "Health"]
  let merchants = [
    "Whole Foods Market", "Café Müller", "Shell Oil 5723", "Oak Street Apartments", "PG&E Utility Bill",
    "AMZN Mktp US*2K4", "Noodle Bar 麺", "Dental Care 🇺🇸 SF",
  ]
  var state: UInt64 = 20_261_022
  func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  var expenses: [Expense] = []
  var totals: [String: CategoryMonthTotal] = [:]
  for index in 0..<count {
    let category = Int(next() % UInt64(categories.count))
    let day = 31 - index * 31 / max(1, count)
    let minor = Int64(100 + next() % 30_000)
    expenses.append(
      Expense(
        id: Int64(index + 1), date: CivilDate(year: 2026, month: 10, day: max(1, day))!,
        amount: Money(minor: -minor, currency: .usd), description: "\(merchants[category]) #\(next() % 100_000)",
        category: categories[category], account: "Checking", source: .init(file: "bank.csv", line: index + 2)))
    var total =
      totals[categories[category]]
      ?? CategoryMonthTotal(
        currency: .usd, category: categories[category], month: month, outflowMinor: 0, inflowMinor: 0, count: 0)
    total.outflowMinor += minor
    total.count += 1
    totals[categories[category]] = total
  }
  let calculator = BenchmarkCalculator(today: CivilDate(year: 2026, month: 10, day: 31)!)
  let all = totals.values.sorted { $0.category! < $1.category! }
  let budgets = categories.map { Budget(category: $0, amount: Money(minor: 25_000_000, currency: .usd)) }
  var report = calculator.report(for: month, input: .init(totals: all, budgets: budgets))
  report.expenses = expenses
  report.trends = calculator.trends(ending: month, totals: all, kinds: [:])
  return report
}

/// Median and 99th percentile in milliseconds of `iterations` runs of `body`.
func measure(_ name: String, iterations: Int, _ body: () -> Void) {
  let clock = ContinuousClock()
  var samples: [Double] = []
  samples.reserveCapacity(iterations)
  for _ in 0..<iterations {
    let elapsed = clock.measure(body)
    samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
  }
  samples.sort()
  let median = samples[samples.count / 2]
  let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
  let padded = name.padding(toLength: 44, withPad: " ", startingAt: 0)
  print(padded + " median \(format(median)) ms   p99 \(format(p99)) ms   (\(iterations) runs)")
}

func format(_ ms: Double) -> String {
  let hundredths = Int((ms * 100).rounded())
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

let report = sampleReport(count: rows)
let settings = ScreenSettings(glyphs: .unicode, color: true, animation: false)
let clock = ContinuousClock()
var screen = ReportScreen(
  report: report, width: width, height: height, preferences: .standard, accordion: false, settings: settings)
let opening = clock.measure {
  _ = screen.handle(.character("e"))  // every section open: all 10,000 rows laid out
}
print("rows \(rows), screen \(width)x\(height), expenses section open (first layout \(opening))")
var sink = 0

// Into the middle of the list, so every frame shows rows.
for _ in 0..<(rows / 2) { _ = screen.handle(.down) }

measure("frame after a cursor move (j/k)", iterations: 2_000) {
  _ = screen.handle(sink % 2 == 0 ? .down : .up)
  sink += screen.frame().styled(color: true).count
}
measure("frame after a page (PgDn/PgUp)", iterations: 2_000) {
  _ = screen.handle(sink % 2 == 0 ? .pageDown : .pageUp)
  sink += screen.frame().styled(color: true).count
}
measure("frame after a row expands or folds (Enter)", iterations: 1_000) {
  _ = screen.handle(.enter)
  sink += screen.frame().styled(color: true).count
}
measure("frame after a section folds/unfolds (Trends)", iterations: 200) {
  _ = screen.handle(.character("G"))
  _ = screen.handle(.enter)
  sink += screen.frame().styled(color: true).count
}
var narrower = false
measure("re-layout after a resize (all rows refitted)", iterations: 20) {
  narrower.toggle()
  screen.resize(width: narrower ? width - 1 : width, height: height)
  sink += screen.frame().styled(color: true).count
}
measure("filter: type a letter, then delete it", iterations: 50) {
  _ = screen.handle(.character("/"))
  _ = screen.handle(.character("c"))
  _ = screen.handle(.enter)
  sink += screen.frame().styled(color: true).count
  _ = screen.handle(.character("/"))
  _ = screen.handle(.backspace)
  _ = screen.handle(.enter)
}
print("(checksum \(sink))")

import ExpenseCore
import ExpenseInteractive
import ExpenseRender

/// A report built the way the CLI builds one (the calculator over per-category totals), with
/// its expense rows loaded, pinned to October 2026 with today the 20th.
enum ScreenFixture {
  static let month = Month(year: 2026, month: 10)!
  static let today = CivilDate(year: 2026, month: 10, day: 20)!
  static let categories = ["Groceries", "Dining out", "Transport", "Rent", "Utilities", "Shopping"]
  static let merchants = [
    "Café Müller", "Noodle Bar 麺", "Shell Oil 5723", "Oak Street Rent", "PG&E Bill", "Flag 🇩🇪 Shop",
  ]

  /// `rows` expenses, newest first; the last category is over budget.
  static func report(rows: Int = 40, description: ((Int) -> String)? = nil) -> BudgetReport {
    var expenses: [Expense] = []
    for index in 0..<rows {
      let category = index % categories.count
      let text = description?(index) ?? "\(merchants[category]) #\(index)"
      expenses.append(
        Expense(
          id: Int64(index + 1), date: CivilDate(year: 2026, month: 10, day: 20 - index % 20)!,
          amount: Money(minor: -Int64(100 + (index * 7919) % 20_000), currency: .usd), description: text,
          category: categories[category], account: index % 3 == 0 ? "Checking" : nil,
          source: index % 5 == 4 ? nil : .init(file: "bank.csv", line: index + 2)))
    }
    expenses.sort { ($0.date, $1.id!) > ($1.date, $0.id!) }
    var totals: [String: CategoryMonthTotal] = [:]
    for expense in expenses {
      let name = expense.category!
      var total =
        totals[name]
        ?? CategoryMonthTotal(currency: .usd, category: name, month: month, outflowMinor: 0, inflowMinor: 0, count: 0)
      total.outflowMinor += -expense.amount.minor
      total.count += 1
      totals[name] = total
    }
    let budgets = categories.enumerated().map { index, name in
      Budget(category: name, amount: Money(minor: index == 5 ? 1_000 : 100_000, currency: .usd))
    }
    let calculator = BenchmarkCalculator(today: today)
    let all = Array(totals.values).sorted { $0.category! < $1.category! }
    var report = calculator.report(for: month, input: .init(totals: all, budgets: budgets))
    report.expenses = expenses
    report.trends = calculator.trends(ending: month, totals: all, kinds: [:])
    return report
  }

  /// A screen on `report` with nothing saved (category performance open, the rest folded).
  static func screen(
    _ report: BudgetReport = report(), width: Int = 50, height: Int = 20, accordion: Bool = false,
    animation: Bool = false, glyphs: GlyphSet = .unicode, color: Bool = false,
    preferences: SectionStates = .standard
  ) -> ReportScreen {
    ReportScreen(
      report: report, width: width, height: height, preferences: preferences, accordion: accordion,
      settings: ScreenSettings(glyphs: glyphs, color: color, animation: animation))
  }
}

extension ReportScreen {
  /// Applies keys in order and returns every effect they asked for.
  @discardableResult
  mutating func press(_ keys: Key...) -> [ScreenEffect] {
    keys.flatMap { handle($0) }
  }

  /// The frame's text, one line per screen row.
  mutating func text() -> String { frame().lines.joined(separator: "\n") }

  /// Moves the cursor down until it rests on `item`.
  mutating func moveTo(_ item: ScreenItem) {
    var guardCount = 0
    while cursor != item && guardCount < 10_000 {
      handle(.down)
      guardCount += 1
    }
  }
}

extension Frame {
  /// The line the cursor is on.
  var cursorLine: String? { highlighted.map { lines[$0] } }
}

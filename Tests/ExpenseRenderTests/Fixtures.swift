import ExpenseCore
import ExpenseRender

/// The fixture reports the goldens are rendered from, built from ExpenseCore values through
/// `BenchmarkCalculator` exactly as the CLI builds them.
enum Fixtures {
  static let october = Month(year: 2026, month: 10)!
  static let today = CivilDate(year: 2026, month: 10, day: 20)!

  static func usd(_ major: Double) -> Int64 { Int64((major * 100).rounded()) }

  static func total(
    _ category: String?, _ month: Month, out: Int64, in inflow: Int64 = 0, count: Int = 1, _ currency: Currency = .usd,
    inflowCount: Int = 0
  ) -> CategoryMonthTotal {
    CategoryMonthTotal(
      currency: currency, category: category, month: month, outflowMinor: out, inflowMinor: inflow, count: count,
      inflowCount: inflowCount)
  }

  /// A month's outflows by day: rent all on the 1st, anything else evenly over the days (the
  /// remainder on the last), as the store's rollup would hold them.
  static func spread(_ out: Int64, over month: Month, rent: Bool) -> [Int64] {
    var days = [Int64](repeating: 0, count: 31)
    if rent {
      days[0] = out
      return days
    }
    let count = Int64(month.dayCount)
    for day in 0..<month.dayCount { days[day] = out / count }
    days[month.dayCount - 1] += out % count
    return days
  }

  static func date(_ day: Int, month: Int = 10) -> CivilDate { CivilDate(year: 2026, month: month, day: day)! }

  /// A demo-like October 2026: ten categories, two over, one near, a refund, income, history.
  static var demo: BudgetReport {
    let budgets: [(String, Double)] = [
      ("Dining out", 150), ("Groceries", 400), ("Transport", 90), ("Rent", 1500), ("Utilities", 160),
      ("Entertainment", 100), ("Shopping", 250), ("Health", 120), ("Coffee", 40), ("Subscriptions", 60),
    ]
    let spent: [String: (Double, Double, Int)] = [  // out, in, count
      "Dining out": (168.40, 0, 9), "Groceries": (328.10, 0, 7), "Transport": (36.90, 0, 5), "Rent": (1500, 0, 1),
      "Utilities": (92.35, 0, 2), "Entertainment": (31.99, 0, 2), "Shopping": (212.50, 60, 4),
      "Coffee": (46.75, 0, 14), "Subscriptions": (45.97, 0, 3), "Gifts": (85, 0, 1), "Salary": (0, 5200, 1),
    ]
    var totals: [CategoryMonthTotal] = []
    for (name, (out, inflow, count)) in spent.sorted(by: { $0.key < $1.key }) {
      totals.append(total(name, october, out: usd(out), in: usd(inflow), count: count))
    }
    // Money in without a category (unsorted) and a card payment (a transfer): neither is spending.
    totals.append(total(nil, october, out: 0, in: usd(3125.82), count: 2, inflowCount: 2))
    totals.append(total(transfersName, october, out: usd(500), count: 1))
    // Five earlier months of history for averages and trends.
    for back in 1...5 {
      let month = october.adding(months: -back)
      for (index, (name, budget)) in budgets.enumerated() where name != "Health" {
        let factor = 0.55 + Double((index * 7 + back * 3) % 9) / 10
        var history = total(name, month, out: usd((budget * factor).rounded()), count: 3)
        history.dailyOutflowMinor = spread(history.outflowMinor, over: month, rent: name == "Rent")
        totals.append(history)
      }
      totals.append(total("Salary", month, out: 0, in: usd(5200)))
    }
    let kinds: [String: CategoryKind] = ["Salary": .income]
    let input = BenchmarkCalculator.Input(
      totals: totals, budgets: budgets.map { Budget(category: $0.0, amount: Money(minor: usd($0.1), currency: .usd)) },
      kinds: kinds, historyStart: [.usd: october.adding(months: -5)])
    let calculator = BenchmarkCalculator(today: today)
    var report = calculator.report(for: october, input: input)
    report.expenses = [
      Expense(
        date: date(19), amount: Money(minor: -usd(42.80), currency: .usd),
        description: "Trattoria Da Enzo — dinner for four, split with Sam and Priya", category: "Dining out",
        account: "Visa ••4821", source: .init(file: "visa-2026-10.csv", line: 41)),
      Expense(
        date: date(18), amount: Money(minor: -usd(84.20), currency: .usd), description: "Whole Foods Market #10234",
        category: "Groceries", account: "Checking", source: .init(file: "checking-oct.csv", line: 12)),
      Expense(
        date: date(17), amount: Money(minor: usd(60), currency: .usd), description: "REFUND Outdoor Supply Co",
        category: "Shopping", account: "Visa ••4821", source: .init(file: "visa-2026-10.csv", line: 37)),
      Expense(
        date: date(15), amount: Money(minor: -usd(6.75), currency: .usd), description: "Blue Bottle Coffee",
        category: "Coffee", account: "Visa ••4821", source: .init(file: "visa-2026-10.csv", line: 30)),
      Expense(
        date: date(3), amount: Money(minor: -usd(85), currency: .usd),
        description: "Flowers\u{1B}[31m for Mum\u{07}", category: nil, account: nil, source: nil),
      Expense(
        date: date(1), amount: Money(minor: -usd(1500), currency: .usd), description: "Rent October",
        category: "Rent", account: "Checking", source: .init(file: "checking-oct.csv", line: 2)),
    ]
    report.trends = calculator.trends(ending: october, totals: totals, kinds: kinds)
    return report
  }

  /// 34 categories with long, CJK, emoji and combining-mark names.
  static var many: BudgetReport {
    let names = [
      "Groceries", "食費・外食", "交通費", "☕ Coffee", "🍕 Pizza night", "👩‍👩‍👧 Family outings",
      "Cafe\u{301} au lait", "Home improvement and garden supplies for the allotment", "Books", "Music lessons",
      "Pet food & vet", "Gym membership", "Streaming services (Netflix, Disney+, Spotify, YouTube Premium)",
      "Car insurance", "Parking", "Fuel", "Phone", "Internet", "Electricity", "Water", "Gas", "Clothing", "Kids",
      "School trips", "Birthday presents", "Charity", "Hobbies", "Haircuts", "Pharmacy", "Dentist",
      "Travel 🇯🇵 Tokyo 2026", "한국 식료품", "Bank fees", "Uncategorized",
    ]
    var totals: [CategoryMonthTotal] = []
    var budgets: [Budget] = []
    for (index, name) in names.enumerated() {
      let budget = Int64(2_000 + (index * 3_719) % 60_000)
      let spent = budget * Int64(30 + (index * 37) % 100) / 100
      if index % 7 != 3 { budgets.append(Budget(category: name, amount: Money(minor: budget, currency: .usd))) }
      totals.append(total(name == "Uncategorized" ? nil : name, october, out: spent, count: 1 + index % 5))
      for back in 1...3 {
        totals.append(total(name, october.adding(months: -back), out: spent * Int64(80 + back * 10) / 100))
      }
    }
    let calculator = BenchmarkCalculator(today: today)
    let input = BenchmarkCalculator.Input(
      totals: totals, budgets: budgets, historyStart: [.usd: october.adding(months: -6)])
    var report = calculator.report(for: october, input: input)
    report.trends = calculator.trends(ending: october, totals: totals, kinds: [:])
    return report
  }

  /// A past month (September: no pace or projection) in USD and EUR.
  static var twoCurrencies: BudgetReport {
    let september = Month(year: 2026, month: 9)!
    let totals = [
      total("Groceries", september, out: usd(310.45), count: 6),
      total("Dining out", september, out: usd(190.10), count: 5),
      total("Transport", september, out: usd(55), count: 3),
      total("Shopping", september, out: usd(20), in: usd(50), count: 2, inflowCount: 1),  // a credit
      total("Groceries", september, out: 18_840, count: 4, .eur),
      total("Hotel", september, out: 42_000, count: 2, .eur),
      total("Museums", september, out: 3_600, in: 1_200, count: 3, .eur),
    ]
    let budgets = [
      Budget(category: "Groceries", amount: Money(minor: usd(400), currency: .usd)),
      Budget(category: "Dining out", amount: Money(minor: usd(150), currency: .usd)),
      Budget(category: "Transport", amount: Money(minor: usd(90), currency: .usd)),
      Budget(category: "Shopping", amount: Money(minor: usd(100), currency: .usd)),
      Budget(category: "Groceries", amount: Money(minor: 20_000, currency: .eur)),
      Budget(category: "Hotel", amount: Money(minor: 40_000, currency: .eur)),
    ]
    var report = BenchmarkCalculator(today: today).report(
      for: september, input: .init(totals: totals, budgets: budgets))
    report.expenses = [
      Expense(
        date: CivilDate(year: 2026, month: 9, day: 14)!, amount: Money(minor: -21_000, currency: .eur),
        description: "Hôtel des Arts, Paris", category: "Hotel", account: "Revolut EUR",
        source: .init(file: "revolut.csv", line: 8)),
      Expense(
        date: CivilDate(year: 2026, month: 9, day: 2)!, amount: Money(minor: -usd(64.30), currency: .usd),
        description: "Trader Joe's", category: "Groceries", account: "Checking",
        source: .init(file: "checking-sep.csv", line: 3)),
    ]
    return report
  }

  /// Nothing imported, nothing budgeted.
  static var empty: BudgetReport {
    BenchmarkCalculator(today: today).report(for: october, input: .init(totals: [], budgets: []))
  }

  /// Amounts up to 10^12 minor units: full amounts do not fit narrow widths.
  static var huge: BudgetReport {
    let totals = [
      total("Yacht", october, out: 1_000_000_000_000, count: 1),
      total("Island", october, out: 987_654_321_098, count: 2),
      total("Snacks", october, out: 1_234, count: 1),
    ]
    let budgets = [
      Budget(category: "Yacht", amount: Money(minor: 900_000_000_000, currency: .usd)),
      Budget(category: "Island", amount: Money(minor: 999_999_999_999, currency: .usd)),
      Budget(category: "Snacks", amount: Money(minor: 5_000, currency: .usd)),
    ]
    return BenchmarkCalculator(today: today).report(for: october, input: .init(totals: totals, budgets: budgets))
  }

  static let all: [(String, BudgetReport)] = [
    ("demo", demo), ("many", many), ("two-currencies", twoCurrencies), ("empty", empty), ("huge", huge),
  ]
}

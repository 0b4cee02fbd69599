/// The whole budget report for one month: plain data, computed once, rendered by any format.
public struct BudgetReport: Hashable, Sendable, Codable {
  /// The month reported on.
  public var month: Month
  /// The injected "today" the report was computed for.
  public var today: CivilDate
  /// Days in the month.
  public var daysInMonth: Int
  /// Days of the month elapsed including today, when the month contains today; else `nil`.
  public var daysElapsed: Int?
  /// One group per currency; amounts of different currencies are never added together.
  public var groups: [CurrencyGroup]
  /// How many transactions the month has (all currencies, income included).
  public var expenseCount: Int
  /// The month's transactions, newest first; `nil` when the expenses section is collapsed and
  /// so was never loaded.
  public var expenses: [Expense]?
  /// Six months of spending per category ending with `month`; `nil` when not loaded.
  public var trends: TrendReport?
  /// The first and the latest month with any transaction in the database (any currency);
  /// `nil` for an empty database. A report of a month without rows points to the latest.
  public var firstMonthWithData: Month?
  public var latestMonthWithData: Month?
  /// Every goal and where it stands in this month (`goal add`), by id; empty without goals.
  public var goals: [GoalProgress] = []
  /// Each account in each currency a statement stated a balance in, against its bank (the
  /// `accounts` section); empty when no statement stated one.
  public var accounts: [AccountCheck] = []
  /// The recurring series found in the ledger's rows (not ignored, not stopped) with their
  /// due dates in this month (the `recurring` section); empty when none were found.
  public var recurring: [RecurringLine] = []
  /// The tags with rows this month or a budget reaching into it (the `tags` section), by
  /// name; empty when no tag has either.
  public var tags: [TagLine] = []

  public init(
    month: Month, today: CivilDate, daysInMonth: Int, daysElapsed: Int?, groups: [CurrencyGroup],
    expenseCount: Int, expenses: [Expense]? = nil, trends: TrendReport? = nil
  ) {
    self.month = month
    self.today = today
    self.daysInMonth = daysInMonth
    self.daysElapsed = daysElapsed
    self.groups = groups
    self.expenseCount = expenseCount
    self.expenses = expenses
    self.trends = trends
  }

  /// Whether the month has no rows while the database has some elsewhere: the report says so
  /// and names the latest month with data (and the command that shows it).
  public var isMonthWithoutData: Bool { expenseCount == 0 && latestMonthWithData != nil }

  /// Days left after today in the month, when the month contains today.
  public var daysLeft: Int? { daysElapsed.map { daysInMonth - $0 } }

  /// Number of spending categories over all groups.
  public var categoryCount: Int { groups.reduce(0) { $0 + $1.categories.count } }
  /// Number of categories over budget, over all groups.
  public var overCount: Int { groups.reduce(0) { $0 + $1.totals.overCount } }
  /// Number of categories near their budget, over all groups.
  public var nearCount: Int { groups.reduce(0) { $0 + $1.totals.nearCount } }
}

/// Everything in one currency: its category rows, totals and income.
public struct CurrencyGroup: Hashable, Sendable, Codable {
  public var currency: Currency
  /// Spending categories, bad news first (highest % used), then unbudgeted by amount.
  public var categories: [CategoryBenchmark]
  public var totals: BenchmarkTotals
  /// Income categories with the net amount received (inflows − outflows).
  public var income: [IncomeLine]
  /// Remaining budget per day left, when the month contains today, days are left and the
  /// remaining total is positive.
  public var dailyAllowanceMinor: Int64?
  /// Money in without a category: never subtracted from spending, shown on its own line until
  /// a rule or `categories set-kind` sorts it.
  public var unsortedInMinor: Int64
  /// How many rows make up `unsortedInMinor`.
  public var unsortedInCount: Int
  /// Net money moved out through transfer categories (card payments, savings, top-ups):
  /// outflows − inflows, neither spending nor income. Negative when more came in than went out.
  public var transfersMinor: Int64
  /// How many rows are in transfer categories this month.
  public var transferCount: Int
  /// True when a sum could not be represented in 64 bits: it is shown capped at the largest
  /// amount, never wrapped.
  public var amountsCapped: Bool
  /// The month's budget moves in this currency (`budget move`), oldest first.
  public var moves: [BudgetMove] = []

  public init(
    currency: Currency, categories: [CategoryBenchmark], totals: BenchmarkTotals, income: [IncomeLine],
    dailyAllowanceMinor: Int64?, unsortedInMinor: Int64 = 0, unsortedInCount: Int = 0, transfersMinor: Int64 = 0,
    transferCount: Int = 0, amountsCapped: Bool = false
  ) {
    self.currency = currency
    self.categories = categories
    self.totals = totals
    self.income = income
    self.dailyAllowanceMinor = dailyAllowanceMinor
    self.unsortedInMinor = unsortedInMinor
    self.unsortedInCount = unsortedInCount
    self.transfersMinor = transfersMinor
    self.transferCount = transferCount
    self.amountsCapped = amountsCapped
  }

  enum CodingKeys: String, CodingKey {
    case currency, categories, totals, income, dailyAllowanceMinor
    case unsortedInMinor, unsortedInCount, transfersMinor, transferCount, amountsCapped, moves
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(moves, forKey: .moves)
    try c.encode(currency, forKey: .currency)
    try c.encode(categories, forKey: .categories)
    try c.encode(totals, forKey: .totals)
    try c.encode(income, forKey: .income)
    try c.encode(dailyAllowanceMinor, forKey: .dailyAllowanceMinor)
    try c.encode(unsortedInMinor, forKey: .unsortedInMinor)
    try c.encode(unsortedInCount, forKey: .unsortedInCount)
    try c.encode(transfersMinor, forKey: .transfersMinor)
    try c.encode(transferCount, forKey: .transferCount)
    try c.encode(amountsCapped, forKey: .amountsCapped)
  }
}

/// Net income of one income category in the month.
public struct IncomeLine: Hashable, Sendable, Codable {
  public var category: String
  public var amountMinor: Int64
  /// Always `income`: written so every category in the JSON states its kind.
  public var kind: CategoryKind
  public init(category: String, amountMinor: Int64) {
    self.category = category
    self.amountMinor = amountMinor
    self.kind = .income
  }
}

/// Spending per category over consecutive months (oldest first), for the trends section.
public struct TrendReport: Hashable, Sendable, Codable {
  public var months: [Month]
  public var rows: [TrendRow]
  /// When the report month contains today: the day of the month before that corresponds to
  /// today (`BenchmarkCalculator.correspondingDay`), through which each row's
  /// `sameDaysLastMonthMinor` is counted; nil otherwise.
  public var sameDaysThrough: Int? = nil
  public init(months: [Month], rows: [TrendRow]) {
    self.months = months
    self.rows = rows
  }

  enum CodingKeys: String, CodingKey { case months, rows, sameDaysThrough }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    months = try c.decode([Month].self, forKey: .months)
    rows = try c.decode([TrendRow].self, forKey: .rows)
    sameDaysThrough = try c.decodeIfPresent(Int.self, forKey: .sameDaysThrough)
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(months, forKey: .months)
    try c.encode(rows, forKey: .rows)
    try c.encode(sameDaysThrough, forKey: .sameDaysThrough)  // null, not absent
  }
}

/// One category's spending in each month of a `TrendReport`.
public struct TrendRow: Hashable, Sendable, Codable {
  public var currency: Currency
  public var category: String
  /// Spent per month, aligned with `TrendReport.months` (0 for a month before `historyStart`).
  public var spentMinor: [Int64]
  /// The first month with any transaction in the currency: a month before it has no data,
  /// shown as such (not as $0.00, which would say nothing was spent); `nil` when unknown.
  public var historyStart: Month?
  /// Per month, its status against the monthly budget in force that month; nil without one.
  public var status: [BudgetStatus?] = []
  /// Money out in the month before the report month through `TrendReport.sameDaysThrough`
  /// (outflows only: refunds are not dated by day); nil when the report month is not today's.
  public var sameDaysLastMonthMinor: Int64? = nil

  public init(currency: Currency, category: String, spentMinor: [Int64], historyStart: Month? = nil) {
    self.currency = currency
    self.category = category
    self.spentMinor = spentMinor
    self.historyStart = historyStart
  }

  /// Whether `month` is within the currency's history (it has data, if only zeros).
  public func hasData(_ month: Month) -> Bool { historyStart.map { month >= $0 } ?? true }

  enum CodingKeys: String, CodingKey {
    case currency, category, spentMinor, historyStart, status, sameDaysLastMonthMinor
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    currency = try c.decode(Currency.self, forKey: .currency)
    category = try c.decode(String.self, forKey: .category)
    spentMinor = try c.decode([Int64].self, forKey: .spentMinor)
    historyStart = try c.decodeIfPresent(Month.self, forKey: .historyStart)
    status = try c.decodeIfPresent([BudgetStatus?].self, forKey: .status) ?? []
    sameDaysLastMonthMinor = try c.decodeIfPresent(Int64.self, forKey: .sameDaysLastMonthMinor)
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(currency, forKey: .currency)
    try c.encode(category, forKey: .category)
    try c.encode(spentMinor, forKey: .spentMinor)
    try c.encode(historyStart, forKey: .historyStart)  // null, not absent, when unknown
    try c.encode(status, forKey: .status)
    try c.encode(sameDaysLastMonthMinor, forKey: .sameDaysLastMonthMinor)
  }
}

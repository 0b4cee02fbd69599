import ExpenseCore

/// What `expenses export` writes: plain values read by the command, so the journal renderers
/// stay pure (no database, no clock).
public struct ExportInput: Sendable {
  /// The expenses to write, oldest first.
  public var expenses: [Expense]
  /// Category kinds as the store keeps them (`Transfers` is a transfer unless set otherwise).
  public var kinds: [String: CategoryKind]
  /// Every budget: defaults and month overrides (of a quarterly or yearly category: its
  /// period's amount, dated on the period's first month).
  public var budgets: [Budget]
  /// The categories budgeted by the quarter or the year (the others by the month).
  public var periods: [CategoryPeriod]
  /// The first day of the exported period when one was asked for (dates the budgets and the
  /// account openings of beancount); else the earliest date in the data is used.
  public var firstDay: CivilDate?
  /// The account of rows that have none (`Bank`).
  public var defaultAccount: String

  public init(
    expenses: [Expense], kinds: [String: CategoryKind], budgets: [Budget], periods: [CategoryPeriod] = [],
    firstDay: CivilDate? = nil, defaultAccount: String = "Bank"
  ) {
    self.expenses = expenses
    self.periods = periods
    self.kinds = kinds
    self.budgets = budgets
    self.firstDay = firstDay
    self.defaultAccount = defaultAccount
  }

  /// The kind of a stored category, as `BenchmarkCalculator` decides it (kept in step with it:
  /// the journal's per-category totals must equal the report's).
  func kind(of category: String?) -> CategoryKind {
    guard let category else { return .expense }
    return kinds[category] ?? (category.lowercased() == transfersName.lowercased() ? .transfer : .expense)
  }

  /// Where one expense goes: the counter account (by kind) and the asset account it moved.
  ///
  /// Spending (kind expense) → `expenses:CATEGORY`, uncategorized money out →
  /// `expenses:Uncategorized`; income → `income:CATEGORY`; money in without a category (the
  /// report's unsorted money in) → `income:Unsorted`; a transfer → the clearing account
  /// `assets:Transfers:CATEGORY` (its balance is the report's net transfers out).
  func posting(_ e: Expense) -> (counter: AccountPath, asset: AccountPath) {
    let asset = AccountPath(root: .assets, name: e.account.map { CategoryName.trimmed($0) } ?? defaultAccount)
    switch kind(of: e.category) {
    case .income: return (AccountPath(root: .income, name: e.category ?? ""), asset)
    case .transfer: return (AccountPath(root: .transfers, name: e.category ?? transfersName), asset)
    case .expense:
      guard let category = e.category else {
        return (
          e.amount.minor > 0
            ? AccountPath(root: .income, name: "Unsorted", special: true)
            : AccountPath(root: .expenses, name: uncategorizedName), asset
        )
      }
      return (AccountPath(root: .expenses, name: category), asset)
    }
  }

  /// The first date anything in the journal is dated on (beancount opens accounts then).
  var startDay: CivilDate { startDay(earliestExpense: expenses.map(\.date).min()) }

  /// `startDay` for a journal whose earliest expense is on `earliestExpense` (its rows are
  /// streamed, not in `expenses`).
  func startDay(earliestExpense: CivilDate?) -> CivilDate {
    var days = budgets.compactMap { $0.month?.firstDay }
    if let earliestExpense { days.append(earliestExpense) }
    if let firstDay { days.append(firstDay) }
    return days.min() ?? CivilDate(daysSinceEpoch: 0)
  }
}

/// An account before it is spelled for one format: a root and the user's name.
struct AccountPath: Hashable, Comparable {
  enum Root: Int, Comparable {
    case assets, transfers, income, expenses
    static func < (a: Root, b: Root) -> Bool { a.rawValue < b.rawValue }
  }
  var root: Root
  var name: String
  /// A name the exporter made up (`Unsorted`), kept apart from a user category of that name.
  var special = false

  static func < (a: AccountPath, b: AccountPath) -> Bool {
    (a.root, a.special ? 0 : 1, a.name) < (b.root, b.special ? 0 : 1, b.name)
  }
}

enum CategoryName {
  /// Surrounding spaces off; the stored names are already tidy, account names typed in a bank
  /// file may not be.
  static func trimmed(_ s: String) -> String { s.trimmingASCIIWhitespace() }
}

import ExpenseCore
import ExpenseStore

extension ExpenseService {
  /// Sets the budget of `category` (every month, or only `month`) from a typed amount in
  /// `currency` (default: the store's); returns the budget as stored.
  ///
  /// `rollover` (nil: as it was) sets the category's mode in that currency for every month:
  /// turned on, the carry starts in `month`, or this month when the budget is every month's.
  /// `period` (nil: as it was) says how long the amount lasts: a month, a quarter or a year.
  public func setBudget(
    category: String, amount: String, month: Month?, currency code: String?, rollover: RolloverMode? = nil,
    period: BudgetPeriod? = nil
  ) throws -> Budget {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) } ?? store.defaultCurrency()
    let budget = Budget(category: category, amount: try Money.parse(amount, currency: currency), month: month)
    return try recordingBudget(category: category, "budget set") {
      try saveBudget(budget, rollover: rollover, period: period)
    }
  }

  /// Runs a write of `category`'s budgets as a change of the history: its budgets and terms
  /// before and after.
  func recordingBudget<T>(category: String, _ action: String, _ body: () throws -> T) throws -> T {
    try recording(action) {
      let currencies = Set(try store.budgets().map(\.amount.currency))
      var before = try budgetState(category, currencies: currencies)
      let value = try body()
      let after = try budgetState(category, currencies: Set(before.currencies))
      before = History.widened(before, to: after.currencies, category: category)
      let name = after.budgets.first?.category ?? before.budgets.first?.category ?? category
      let summary = "\(action) " + History.budgetLine(name, after).dropFirst(0)
      let effect: History.Recorded? =
        before == after ? nil : .effect(.budgets(category: name, before: before, after: after))
      return (value, summary, effect)
    }
  }

  /// Sets a budget of `amountMinor` in `currency`, or in the database's default currency when
  /// none is given, read in the same transaction as the write (a default changed meanwhile
  /// cannot split them): `PUT /v1/budgets/{category}`.
  public func setBudget(
    category: String, amountMinor: Int64, month: Month?, currency: Currency?, rollover: RolloverMode? = nil,
    period: BudgetPeriod? = nil
  ) throws -> Budget {
    try recordingBudget(category: category, "budget set") {
      let currency = try currency ?? store.defaultCurrency()
      return try saveBudget(
        Budget(category: category, amount: Money(minor: amountMinor, currency: currency), month: month),
        rollover: rollover, period: period)
    }
  }

  /// Saves `budget` with its category's terms, refusing what a period does not allow: a
  /// quarterly or yearly budget is one every-month amount (no month of its own, no month
  /// overrides beside it) and does not roll over.
  func saveBudget(_ budget: Budget, rollover: RolloverMode?, period: BudgetPeriod?) throws -> Budget {
    let currency = budget.amount.currency
    let stored = try store.budgets().filter {
      CategoryName.key($0.category) == CategoryName.key(budget.category) && $0.amount.currency == currency
    }
    let name = stored.first?.category ?? budget.category
    let newPeriod = try period ?? PeriodSettings.of(store, category: name, currency: currency)
    if newPeriod != .month {
      if let month = budget.month {
        throw ServiceError.periodBudgetForMonth(category: budget.category, period: newPeriod, month: month)
      }
      let months = stored.compactMap(\.month).sorted()
      if !months.isEmpty {
        throw ServiceError.periodBudgetHasMonths(category: budget.category, period: newPeriod, months: months)
      }
      let mode = try rollover ?? stored.first.map { try Rollovers.of(store, budget: $0).mode } ?? .off
      if mode != .off { throw ServiceError.rolloverNeedsMonthlyBudget(category: budget.category, period: newPeriod) }
    }
    let saved = try saveBudget(budget)
    if let rollover {
      try Rollovers.set(rollover, for: saved, from: budget.month ?? clock.today().calendarMonth, in: store)
    }
    if let period { try PeriodSettings.set(period, category: saved.category, currency: currency, in: store) }
    return saved
  }

  /// The rollover mode of `budget`'s category in its currency (`off` when never set).
  public func rollover(of budget: Budget) throws -> RolloverMode { try Rollovers.of(store, budget: budget).mode }

  /// The budget period of `budget`'s category in its currency (`month` when never set).
  public func period(of budget: Budget) throws -> BudgetPeriod {
    try PeriodSettings.of(store, category: budget.category, currency: budget.amount.currency)
  }

  /// Every budget with its category's rollover mode and period, in one read.
  public func budgetsWithTerms() throws -> [BudgetResource] {
    try store.consistently {
      let modes = Dictionary(
        try Rollovers.load(store).map { (Rollovers.key(category: $0.category, currency: $0.currency), $0.mode) },
        uniquingKeysWith: { first, _ in first })
      let periods = Dictionary(
        try PeriodSettings.load(store).map {
          (PeriodSettings.key(category: $0.category, currency: $0.currency), $0.period)
        },
        uniquingKeysWith: { first, _ in first })
      return try store.budgets().map {
        BudgetResource(
          $0, rollover: modes[Rollovers.key(category: $0.category, currency: $0.amount.currency)] ?? .off,
          period: periods[PeriodSettings.key(category: $0.category, currency: $0.amount.currency)] ?? .month)
      }
    }
  }

  /// Saves `budget` and answers with what was stored (under the category's known spelling).
  public func saveBudget(_ budget: Budget) throws -> Budget {
    try store.saveBudget(budget)
    let key = CategoryName.key(budget.category)
    return try store.budgets().first {
      CategoryName.key($0.category) == key && $0.month == budget.month && $0.amount.currency == budget.amount.currency
    } ?? budget
  }

  public func budgets() throws -> [Budget] { try store.budgets() }

  /// Every budget of the category `name` names (each month's and currency's), however it is
  /// spelled; `StoreError.budgetNotFound` when it has none.
  public func budgets(of name: String) throws -> [Budget] {
    let key = CategoryName.key(name)
    let budgets = try store.budgets().filter { CategoryName.key($0.category) == key }
    guard !budgets.isEmpty else { throw StoreError.budgetNotFound(category: name, month: nil) }
    return budgets
  }

  /// Removes a budget (the every-month one, or `month`'s override; one currency's, when given).
  public func removeBudget(category: String, month: Month?, currency code: String?) throws {
    let currency = try code.map { code throws(CoreError) in try Currency.parse(code) }
    try removeBudget(category: category, month: month, currency: currency)
  }

  /// Removes a budget; a category left with no budget in a currency loses its rollover and its
  /// period there (a budget set again later starts from zero, by the month).
  public func removeBudget(category: String, month: Month?, currency: Currency?) throws {
    try recordingBudget(category: category, "budget remove") {
      let key = CategoryName.key(category)
      let before = try store.budgets().filter { CategoryName.key($0.category) == key }
      try store.removeBudget(category: category, month: month, currency: currency)
      let left = Set(try store.budgets().filter { CategoryName.key($0.category) == key }.map(\.amount.currency))
      for budget in before where !left.contains(budget.amount.currency) {
        if try Rollovers.of(store, budget: budget).mode != .off {
          try Rollovers.set(.off, for: budget, from: budget.month ?? clock.today().calendarMonth, in: store)
        }
        try PeriodSettings.set(.month, category: budget.category, currency: budget.amount.currency, in: store)
      }
    }
  }

  /// The store's default currency.
  public func defaultCurrency() throws -> Currency { try store.defaultCurrency() }
}

import ExpenseCore

/// Budgets as runs of months with one amount each, for the journal formats: a default budget
/// holds in every month without an override of the same category and currency, an override
/// holds in its month only (a quarterly or yearly category's: in its whole period, which is
/// what its amount is for).
enum BudgetPeriods {
  /// A half-open run of months: `from` (nil: since always) up to `until` (nil: for ever).
  struct Range: Hashable {
    var from: Month?
    var until: Month?

    /// ` from 2026-12-01 to 2027-01-01` (hledger and Ledger period expressions; `to` excludes).
    var ledger: String {
      var s = ""
      if let from { s += " from \(from.firstDay)" }
      if let until { s += " to \(until.firstDay)" }
      return s
    }
  }

  struct Period: Hashable {
    var category: String
    var amount: Money
    var range: Range
    /// How long one amount lasts: hledger's `~ yearly`, Fava's `"yearly"`.
    var length: BudgetPeriod = .month

    /// `monthly`, `quarterly`, `yearly`.
    var interval: String { length.adjective }
  }

  static func periods(_ budgets: [Budget], lengths: [CategoryPeriod] = []) -> [Period] {
    struct Key: Hashable, Comparable {
      var category: String
      var currency: Currency
      static func < (a: Key, b: Key) -> Bool { (a.category, a.currency) < (b.category, b.currency) }
    }
    var defaults: [Key: Money] = [:]
    var overrides: [Key: [Month: Money]] = [:]
    for b in budgets {
      let key = Key(category: b.category, currency: b.amount.currency)
      if let month = b.month { overrides[key, default: [:]][month] = b.amount } else { defaults[key] = b.amount }
    }
    var out: [Period] = []
    for key in Set(defaults.keys).union(overrides.keys).sorted() {
      let length =
        lengths.first { $0.category == key.category && $0.currency == key.currency }?.period ?? .month
      let byMonth = overrides[key] ?? [:]
      let months = byMonth.keys.sorted()
      if let amount = defaults[key] {
        var start: Month? = nil
        for month in months {
          if start.map({ $0 < month }) ?? true {
            out.append(
              Period(category: key.category, amount: amount, range: Range(from: start, until: month), length: length))
          }
          start = month.adding(months: length.monthCount)
        }
        out.append(
          Period(category: key.category, amount: amount, range: Range(from: start, until: nil), length: length))
      }
      for (month, amount) in byMonth.sorted(by: { $0.key < $1.key }) {
        out.append(
          Period(
            category: key.category, amount: amount,
            range: Range(from: month, until: month.adding(months: length.monthCount)), length: length))
      }
    }
    return out
  }
}

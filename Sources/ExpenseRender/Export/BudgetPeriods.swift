import ExpenseCore

/// Budgets as runs of months with one amount each, for the journal formats: a default budget
/// holds in every month without an override of the same category and currency, an override
/// holds in its month only.
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
  }

  static func periods(_ budgets: [Budget]) -> [Period] {
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
      let months = (overrides[key] ?? [:]).keys.sorted()
      if let amount = defaults[key] {
        var start: Month? = nil
        for month in months {
          if start == nil || start! < month {
            out.append(Period(category: key.category, amount: amount, range: Range(from: start, until: month)))
          }
          start = month.next
        }
        out.append(Period(category: key.category, amount: amount, range: Range(from: start, until: nil)))
      }
      for month in months {
        out.append(
          Period(category: key.category, amount: overrides[key]![month]!, range: Range(from: month, until: month.next)))
      }
    }
    return out
  }
}

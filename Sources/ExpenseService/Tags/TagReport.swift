import ExpenseCore
import ExpenseStore

/// The report's `tags` section: each tag's rows in the month, and against its budget the rows
/// in the budget's days. One pass over the rows of the days either needs; none without tags.
enum TagReport {
  static func lines(_ store: any LedgerStore, month: Month) throws -> [TagLine] {
    let records = try TagRecords.load(store)
    guard !records.isEmpty else { return [] }
    let index = try TagIndex.load(store)
    let budgets = records.values.compactMap(\.body.budget).filter {
      $0.from <= month.lastDay && $0.to >= month.firstDay
    }
    let first = ([month.firstDay] + budgets.map(\.from)).min() ?? month.firstDay
    let last = ([month.lastDay] + budgets.map(\.to)).max() ?? month.lastDay
    struct Sums {
      var count = 0
      var month: Int128 = 0
      var budget: Int128 = 0
    }
    var sums: [String: [Currency: Sums]] = [:]
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(ExpenseQuery(from: first, through: last, order: .any)) { row in
        for tag in index.tags(row) {
          let currency = row.amount.currency
          if month.contains(row.date) {
            sums[tag, default: [:]][currency, default: Sums()].count += 1
            sums[tag, default: [:]][currency, default: Sums()].month -= Int128(row.amount.minor)
          }
          if let budget = records[tag]?.body.budget, budget.currency == currency, budget.from <= row.date,
            row.date <= budget.to
          {
            sums[tag, default: [:]][currency, default: Sums()].budget -= Int128(row.amount.minor)
          }
        }
      }
    }
    var lines: [TagLine] = []
    for name in records.keys.sorted() {
      let budget = records[name]?.body.budget.flatMap { budget in
        budget.from <= month.lastDay && budget.to >= month.firstDay ? budget : nil
      }
      var currencies = Set((sums[name] ?? [:]).filter { $0.value.count > 0 }.keys)
      if let budget { currencies.insert(budget.currency) }
      for currency in currencies.sorted() {
        let sum = sums[name]?[currency] ?? Sums()
        var line = TagLine(
          tag: name, currency: currency, monthCount: sum.count, monthSpentMinor: Int64(clamping: sum.month))
        if let budget, budget.currency == currency {
          line.budgetMinor = budget.amountMinor
          line.budgetFrom = budget.from
          line.budgetTo = budget.to
          line.budgetSpentMinor = Int64(clamping: sum.budget)
          line.percentUsed = budget.percent(of: sum.budget)
        }
        lines.append(line)
      }
    }
    return lines
  }
}

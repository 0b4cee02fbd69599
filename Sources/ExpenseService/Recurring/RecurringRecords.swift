import ExpenseCore
import ExpenseStore

/// The series `expenses recurring` has listed, as records of kind `recurring` (`StoredRecord`):
/// the id a series is shown with (never given to another), and what the user decided of it.
/// The series themselves are found from the rows each time (`RecurringDetector`); only the id
/// and the decision are kept, by payee and currency.
enum RecurringRecords {
  static let records = RecordKind<Body>(name: "recurring")

  enum Decision: String, Codable, Sendable {
    /// Found and listed; nothing decided.
    case detected
    /// The user said it is real (`recurring confirm`).
    case confirmed
    /// The user said it is not (`recurring ignore`): never in the report or its projection.
    case ignored
  }

  struct Body: Codable, Hashable {
    var payee: String
    var currency: Currency
    var decision: Decision
  }

  struct Key: Hashable {
    var payee: String
    var currency: Currency
  }

  /// The stored ids and decisions, by payee and currency.
  static func load(_ store: any LedgerStore) throws -> [Key: (id: Int64, body: Body)] {
    var byKey: [Key: (id: Int64, body: Body)] = [:]
    for (id, body) in try records.load(store) {
      byKey[Key(payee: body.payee, currency: body.currency)] = (id, body)
    }
    return byKey
  }
}

/// Reads what the detector needs: the money out of spending categories (and uncategorized)
/// over the months a yearly series needs three payments in, through the end of `month`.
enum RecurringPayments {
  /// Months read before the one judged: three years and a margin for a yearly payment paid late.
  static let lookbackMonths = 38

  static func series(_ store: any LedgerStore, through month: Month, today: CivilDate) throws -> [RecurringSeries] {
    let first = month.adding(months: -lookbackMonths).firstDay
    let kinds = try store.categoryKinds()
    var payments: [RecurringPayment] = []
    // A ledger whose rows all fall in the months read is read whole, without a date range: a
    // store reads every row fastest (SQLite with its dictionaries in memory), and the days are
    // kept here instead.
    let whole = try store.historyStart().values.min().map { $0 >= first.calendarMonth } ?? true
    let query = whole ? ExpenseQuery(order: .any) : ExpenseQuery(from: first, through: month.lastDay, order: .any)
    let last = month.lastDay
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(query) { row in
        guard row.amount.minor < 0, row.amount.minor > Int64.min, row.date >= first, row.date <= last else { return }
        let category = row.category.map(ExpenseRow.string)
        guard BenchmarkCalculator.kind(of: category, in: kinds) == .expense else { return }
        payments.append(
          RecurringPayment(
            id: row.id, date: row.date, amountMinor: -row.amount.minor, currency: row.amount.currency,
            description: ExpenseRow.string(row.description), category: category))
      }
    }
    return RecurringDetector(today: today).detect(payments)
  }
}

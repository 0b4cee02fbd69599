/// One recurring series in a month's report (the `recurring` section): what it is and its due
/// dates in the month with what became of each.
public struct RecurringLine: Hashable, Sendable, Codable {
  /// The series' stored id, once `expenses recurring` (or the API) has listed it; `nil` before.
  public var id: Int64?
  /// The latest payment's description.
  public var name: String
  public var payee: String
  public var currency: Currency
  public var category: String?
  public var interval: RecurringInterval
  /// The amount expected next.
  public var amountMinor: Int64
  /// Whether the user confirmed the series (`recurring confirm`).
  public var confirmed: Bool
  /// The due date after the latest paid one.
  public var next: CivilDate
  /// The month's due dates, oldest first.
  public var dues: [RecurringDue]

  public init(series: RecurringSeries, id: Int64?, confirmed: Bool, month: Month, today: CivilDate) {
    self.id = id
    name = series.name
    payee = series.payee
    currency = series.currency
    category = series.category
    interval = series.interval
    amountMinor = series.amountMinor
    self.confirmed = confirmed
    next = series.next
    dues = series.dues(in: month, today: today)
  }

  /// Due dates of the month not paid yet and not late.
  public var stillDue: [RecurringDue] { dues.filter { $0.status == .due } }
  public var late: [RecurringDue] { dues.filter { $0.status == .late } }
}

extension [RecurringLine] {
  /// How many due dates of the month are still due, and how many are late, over every series.
  public var stillDueCount: Int { reduce(0) { $0 + $1.stillDue.count } }
  public var lateCount: Int { reduce(0) { $0 + $1.late.count } }
}

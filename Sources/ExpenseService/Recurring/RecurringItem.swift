import ExpenseCore

/// A recurring series as `expenses recurring` and `GET /v1/recurring` list it: one JSON object
/// for both.
public struct RecurringItem: Hashable, Sendable, Codable {
  /// Whether the series is expected (its next due date not past its grace), late, or stopped
  /// (two due dates passed unpaid: nothing more is expected of it).
  public enum Status: String, Hashable, Sendable, Codable {
    case expected, late, stopped
  }

  /// The stored id: given when the series is first listed, never given to another.
  public var id: Int64
  public var name: String
  public var payee: String
  public var currency: Currency
  public var category: String?
  public var interval: RecurringInterval
  /// Payments seen on their due dates.
  public var occurrences: Int
  /// The amount expected next (the latest), and the smallest and largest paid.
  public var amountMinor: Int64
  public var lowMinor: Int64
  public var highMinor: Int64
  public var last: CivilDate
  public var next: CivilDate
  public var status: Status
  /// `detected`, `confirmed` or `ignored`.
  public var decision: String

  init(id: Int64, series: RecurringSeries, decision: RecurringRecords.Decision, today: CivilDate) {
    self.id = id
    name = series.name
    payee = series.payee
    currency = series.currency
    category = series.category
    interval = series.interval
    occurrences = series.occurrences
    amountMinor = series.amountMinor
    lowMinor = series.lowMinor
    highMinor = series.highMinor
    last = series.last
    next = series.next
    status =
      series.stopped ? .stopped : today > series.next.adding(days: series.interval.graceDays) ? .late : .expected
    self.decision = decision.rawValue
  }
}

/// A series of payments to one payee at one interval, found from the rows (`RecurringDetector`).
/// It never creates rows: the bank's files stay the truth, so nothing is ever counted twice.
public struct RecurringSeries: Hashable, Sendable, Codable {
  /// The payee as folded from the descriptions (`PayeeKey`): what identifies the series.
  public var payee: String
  /// The latest payment's description, as the bank wrote it less its numbers (`PayeeKey.display`).
  public var name: String
  public var currency: Currency
  /// The latest payment's category.
  public var category: String?
  public var interval: RecurringInterval
  /// The payments on their due dates, oldest first.
  public var payments: [MatchedPayment]
  /// What the next payment is expected to be: the latest amount (a price that changed stays
  /// changed).
  public var amountMinor: Int64
  /// The smallest and largest amount paid; equal for a fixed amount.
  public var lowMinor: Int64
  public var highMinor: Int64
  /// The due date after the latest paid one.
  public var next: CivilDate
  /// Two due dates passed without a payment as of the day detected: the series ended (a
  /// cancelled subscription), and nothing more is expected of it.
  public var stopped: Bool
  /// Where the due dates fall: day of month (or, weekly, a day the week repeats from).
  var schedule: RecurringSchedule

  public var occurrences: Int { payments.count }
  public var last: CivilDate { payments.last?.date ?? next }
  public var isFixedAmount: Bool { lowMinor == highMinor }

  /// Every due date of the series in `month` with what became of it as of `today`: paid (by a
  /// payment matched to it, early or late), still due, or late (its grace passed unpaid). A
  /// stopped series has none after its last payment.
  public func dues(in month: Month, today: CivilDate) -> [RecurringDue] {
    let paid = Dictionary(payments.map { ($0.due, $0) }, uniquingKeysWith: { first, _ in first })
    let lastDue = payments.last?.due
    return schedule.dueDates(in: month).compactMap { due in
      if let payment = paid[due] {
        return RecurringDue(due: due, amountMinor: payment.amountMinor, status: .paid, paidOn: payment.date)
      }
      if stopped, let lastDue, due > lastDue { return nil }
      if let first = payments.first?.due, due < first { return nil }
      let late = today > due.adding(days: interval.graceDays)
      return RecurringDue(due: due, amountMinor: amountMinor, status: late ? .late : .due, paidOn: nil)
    }
  }
}

/// One due date of a series in a month.
public struct RecurringDue: Hashable, Sendable, Codable {
  public enum Status: String, Hashable, Sendable, Codable {
    /// A payment matched it.
    case paid
    /// Not paid yet, and not past its grace.
    case due
    /// Past its due date and grace, unpaid.
    case late
  }
  public var due: CivilDate
  /// Paid: what was paid; otherwise what is expected.
  public var amountMinor: Int64
  public var status: Status
  public var paidOn: CivilDate?
}

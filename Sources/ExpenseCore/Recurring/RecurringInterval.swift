/// How often a recurring payment comes: the intervals `expenses recurring` detects.
public enum RecurringInterval: String, Hashable, Sendable, Codable, CaseIterable {
  case weekly, monthly, quarterly, yearly

  /// Months from one due date to the next; `nil` for weekly, which counts days.
  var months: Int? {
    switch self {
    case .weekly: nil
    case .monthly: 1
    case .quarterly: 3
    case .yearly: 12
    }
  }

  /// How far from its due date a payment may fall and still be that date's (a bank books a
  /// Sunday's debit on Monday; rent is paid a few days early).
  public var toleranceDays: Int {
    switch self {
    case .weekly: 2
    case .monthly: 6
    case .quarterly: 10
    case .yearly: 15
    }
  }

  /// Days after its due date an unseen payment is still only due (a debit books a day or
  /// three late); past them it is late.
  public var graceDays: Int {
    switch self {
    case .weekly: 1
    case .monthly: 3
    case .quarterly: 5
    case .yearly: 7
    }
  }
}

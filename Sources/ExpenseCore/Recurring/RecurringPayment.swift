/// One payment as the detector reads it: money out of a spending category (or none).
public struct RecurringPayment: Hashable, Sendable {
  public var id: Int64?
  public var date: CivilDate
  /// Money out, in minor units (positive).
  public var amountMinor: Int64
  public var currency: Currency
  public var description: String
  public var category: String?

  public init(
    id: Int64?, date: CivilDate, amountMinor: Int64, currency: Currency, description: String, category: String?
  ) {
    self.id = id
    self.date = date
    self.amountMinor = amountMinor
    self.currency = currency
    self.description = description
    self.category = category
  }
}

/// A payment of a series, on the due date it paid: a payment three days early is the next due
/// date's, not a second one in its month.
public struct MatchedPayment: Hashable, Sendable, Codable {
  public var due: CivilDate
  public var date: CivilDate
  public var amountMinor: Int64
  public var id: Int64?
  public var category: String?
}

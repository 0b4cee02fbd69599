import ExpenseCore

/// What `edit` changes in one row; `nil` fields stay as they are. A blank `category` or
/// `account` clears it.
public struct ExpenseEdit: Hashable, Sendable {
  public var date: CivilDate?
  /// Signed minor units in the row's own currency.
  public var amountMinor: Int64?
  public var description: String?
  public var category: String?
  public var account: String?

  public init(
    date: CivilDate? = nil, amountMinor: Int64? = nil, description: String? = nil, category: String? = nil,
    account: String? = nil
  ) {
    self.date = date
    self.amountMinor = amountMinor
    self.description = description
    self.category = category
    self.account = account
  }

  public var isEmpty: Bool {
    date == nil && amountMinor == nil && description == nil && category == nil && account == nil
  }
}

import ExpenseCore

/// A row stored before an import, near the import's own rows: what the service's matching
/// reads to find probable duplicates and the other side of a transfer (see
/// `ImportWriter.neighbours`). Rows are named by `key`, which is unique in a ledger, because
/// the import's own rows have no id the service has seen.
public struct NeighbourRow: Sendable, Hashable {
  public var key: Int64
  public var id: Int64
  public var date: CivilDate
  public var amount: Money
  public var description: String
  public var account: String?
  public var category: String?
  public var categorySource: CategorySource
  /// Where it was imported from; nil for a row added by hand.
  public var source: Expense.Source?
  /// Whether the row is one side of a transfer pair already.
  public var paired: Bool

  /// Where the row came from, as a summary names it: `file:line`, or "added by hand".
  public var origin: String { source.map { "\($0.file):\($0.line)" } ?? "added by hand" }

  public init(
    key: Int64, id: Int64, date: CivilDate, amount: Money, description: String, account: String?,
    category: String?, categorySource: CategorySource, source: Expense.Source?, paired: Bool
  ) {
    self.key = key
    self.id = id
    self.date = date
    self.amount = amount
    self.description = description
    self.account = account
    self.category = category
    self.categorySource = categorySource
    self.source = source
    self.paired = paired
  }
}

/// Two rows the service matched as one move between the user's own accounts: the money out
/// of one account (`outKey`) and into another (`inKey`), named by key.
public struct TransferLink: Sendable, Hashable {
  public var outKey: Int64
  public var inKey: Int64

  public init(outKey: Int64, inKey: Int64) {
    self.outKey = outKey
    self.inKey = inKey
  }
}

/// A stored transfer pair: the two rows' ids, and the category each had before it was paired
/// (what `transfers unpair` gives back).
public struct TransferPair: Sendable, Hashable, Codable {
  public var outId: Int64
  public var inId: Int64
  public var outCategory: String?
  public var outSource: CategorySource
  public var inCategory: String?
  public var inSource: CategorySource

  public init(
    outId: Int64, inId: Int64, outCategory: String?, outSource: CategorySource, inCategory: String?,
    inSource: CategorySource
  ) {
    self.outId = outId
    self.inId = inId
    self.outCategory = outCategory
    self.outSource = outSource
    self.inCategory = inCategory
    self.inSource = inSource
  }

  /// The other side of `id`'s pair.
  public func partner(of id: Int64) -> Int64? { id == outId ? inId : id == inId ? outId : nil }
}

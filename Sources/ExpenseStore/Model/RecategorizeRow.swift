import ExpenseCore

/// What `LedgerStore.recategorize` shows the service of one stored row: enough for a rule to
/// match it, and its category now.
public struct RecategorizeRow: Sendable {
  public var description: String
  public var account: String?
  public var category: String?
  /// The row's id and where its category came from: what the history keeps of a row before
  /// `rules apply` changed it, so an undo can give it back.
  public var id: Int64
  public var source: CategorySource

  public init(
    description: String, account: String?, category: String?, id: Int64 = 0, source: CategorySource = .none
  ) {
    self.description = description
    self.account = account
    self.category = category
    self.id = id
    self.source = source
  }
}

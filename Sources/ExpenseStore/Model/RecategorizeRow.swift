/// What `LedgerStore.recategorize` shows the service of one stored row: enough for a rule to
/// match it, and its category now.
public struct RecategorizeRow: Sendable {
  public var description: String
  public var account: String?
  public var category: String?

  public init(description: String, account: String?, category: String?) {
    self.description = description
    self.account = account
    self.category = category
  }
}

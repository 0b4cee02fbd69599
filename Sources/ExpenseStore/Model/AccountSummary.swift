import ExpenseCore

/// One account as the ledger's rows name it (`expenses accounts`): its rows and their span.
public struct AccountSummary: Sendable, Hashable, Codable {
  public var name: String
  public var rows: Int
  public var firstDate: CivilDate
  public var lastDate: CivilDate

  public init(name: String, rows: Int, firstDate: CivilDate, lastDate: CivilDate) {
    self.name = name
    self.rows = rows
    self.firstDate = firstDate
    self.lastDate = lastDate
  }
}

/// How an account's names are kept: each name a file gave that the user renamed, under
/// `prefix + name` in the ledger's settings, the value the name it now has.
public enum AccountNames {
  public static let prefix = "account-name:"
}

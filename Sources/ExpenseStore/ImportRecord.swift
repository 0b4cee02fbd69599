import ExpenseCore
import Foundation

/// One import that added rows, as `expenses imports` lists it: the ids it added are
/// `firstId...lastId` (one import is one transaction, so they follow each other).
public struct ImportRecord: Hashable, Sendable, Codable {
  public var id: Int64
  /// The file's name (without its directory).
  public var file: String
  /// When it ran, ISO 8601 in UTC (`2026-11-22T21:30:41Z`); `nil` if the caller gave no time.
  public var importedAt: String?
  /// Rows it added (rows deleted since are not subtracted: this is what the import did).
  public var rows: Int
  public var firstId: Int64
  public var lastId: Int64
  public var firstDate: CivilDate
  public var lastDate: CivilDate

  public init(
    id: Int64, file: String, importedAt: String?, rows: Int, firstId: Int64, lastId: Int64, firstDate: CivilDate,
    lastDate: CivilDate
  ) {
    self.id = id
    self.file = file
    self.importedAt = importedAt
    self.rows = rows
    self.firstId = firstId
    self.lastId = lastId
    self.firstDate = firstDate
    self.lastDate = lastDate
  }

  /// `date` as ISO 8601 in UTC, to the second.
  public static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}

/// What `rules apply` did, or would do with `--dry-run`.
public struct RulesApplyResult: Hashable, Sendable {
  /// Rows whose category changes.
  public var changed: Int
  /// Rows changed, by the category they move to.
  public var byCategory: [String: Int]

  public init(changed: Int, byCategory: [String: Int]) {
    self.changed = changed
    self.byCategory = byCategory
  }
}

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

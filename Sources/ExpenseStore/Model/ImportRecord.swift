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

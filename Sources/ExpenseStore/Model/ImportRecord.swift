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

  /// `date` as ISO 8601 in UTC, to the second (`2026-11-22T21:30:41Z`), the fraction dropped.
  ///
  /// Computed, not asked of `ISO8601DateFormatter`: that formatter loads ICU's calendar and
  /// locale data, about a tenth of the memory a small import peaked at.
  public static func timestamp(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    // Clamped far beyond any clock (±35 million years), so no arithmetic below can overflow.
    let whole = max(-(1 << 50), min(1 << 50, seconds.isFinite ? Int(exactly: seconds) ?? 0 : 0))
    let (days, rest) = (whole.floorDiv(86_400), whole.floorMod(86_400))
    let day = CivilDate(daysSinceEpoch: days)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let year = String(day.year)
    let padded = String(repeating: "0", count: max(0, 4 - year.count)) + year
    return "\(padded)-\(two(day.month))-\(two(day.day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
  }
}

extension Int {
  /// Division rounding toward negative infinity, and its remainder (never negative for a
  /// positive divisor).
  fileprivate func floorDiv(_ d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
  fileprivate func floorMod(_ d: Int) -> Int { self - floorDiv(d) * d }
}

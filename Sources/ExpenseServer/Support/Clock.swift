import ExpenseCore
import ExpenseStore
import Foundation

/// The server's view of the time: injected so tests pin "today" and token expiry.
public struct ServerClock: Sendable {
  /// Now, as the ISO 8601 UTC text the store compares (`ImportRecord.timestamp`).
  public var now: @Sendable () -> Date
  /// Today's date for reports asked without `today`.
  public var today: @Sendable () -> CivilDate

  public init(now: @escaping @Sendable () -> Date, today: @escaping @Sendable () -> CivilDate) {
    self.now = now
    self.today = today
  }

  /// The system clock; today in the local time zone.
  public static let system = ServerClock(
    now: { Date() },
    today: {
      let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
      // Foundation gives a real date; the epoch only stands in for a clock that gives none.
      return CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        ?? CivilDate(daysSinceEpoch: 0)
    })

  var timestamp: String { ImportRecord.timestamp(now()) }
}

import ExpenseCore
import ExpenseStore
import Foundation

/// The one clock of every front end: the CLI (`--today` pins it), the server and the
/// interactive report read the time only through this, so tests pin "today", timestamps and
/// token expiry.
public struct ServiceClock: Sendable {
  /// Now (stored as the ISO 8601 UTC text of `timestamp`).
  public var now: @Sendable () -> Date
  /// Today's date for reports asked without one.
  public var today: @Sendable () -> CivilDate

  public init(now: @escaping @Sendable () -> Date, today: @escaping @Sendable () -> CivilDate) {
    self.now = now
    self.today = today
  }

  /// The system clock; today in the local time zone.
  public static let system = ServiceClock(now: { Date() }, today: { ServiceClock.localDate(of: Date()) })

  /// This clock with "today" pinned (`--today`, a demo's last sample day).
  public func pinning(today day: CivilDate?) -> ServiceClock {
    guard let day else { return self }
    return ServiceClock(now: now, today: { day })
  }

  /// Now as the ISO 8601 UTC text the store keeps and compares.
  public var timestamp: String { ImportRecord.timestamp(now()) }

  /// The calendar date of `date` in the local time zone.
  public static func localDate(of date: Date) -> CivilDate {
    // The C library's local time first: the same time zone as Foundation's (TZ, else
    // /etc/localtime) at a fraction of `Calendar`'s cost, which a server pays per request.
    var local = tm()
    if var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)), localtime_r(&seconds, &local) != nil,
      let day = CivilDate(year: Int(local.tm_year) + 1900, month: Int(local.tm_mon) + 1, day: Int(local.tm_mday))
    {
      return day
    }
    let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
    // Foundation gives a real date; the epoch only stands in for a clock that gives none.
    return CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
      ?? CivilDate(daysSinceEpoch: 0)
  }
}

import ExpenseCore
import Foundation
import Testing

@testable import ExpenseService

/// "Today" of the system clock, read through the C library's local time, is the day Foundation's
/// calendar gives in the same time zone, at every hour around the year and across the years.
@Suite struct LocalDateTests {
  @Test func theLocalDayIsFoundationsDay() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone.current
    // Every 7 hours and 13 minutes from 1971 to 2100: every hour of the day, both sides of
    // each daylight-saving change of the zone.
    var seconds = 31_536_000.0
    while seconds < 4_102_444_800 {
      let date = Date(timeIntervalSince1970: seconds)
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      let expected = CivilDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
      #expect(ServiceClock.localDate(of: date) == expected, "\(date)")
      if ServiceClock.localDate(of: date) != expected { return }
      seconds += 7 * 3600 + 13 * 60
    }
  }
}

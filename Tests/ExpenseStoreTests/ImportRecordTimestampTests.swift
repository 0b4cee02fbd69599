import Foundation
import Testing

@testable import ExpenseStore

/// `ImportRecord.timestamp` writes what Foundation's `ISO8601DateFormatter` (internet date
/// and time, UTC) writes, for dates across four centuries, leap days and fractions of a second.
@Suite struct ImportRecordTimestampTests {
  @Test func theTimestampIsFoundationsISO8601() {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    var state: UInt64 = 7
    var dates: [Date] = [
      Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 951_782_400),
      Date(timeIntervalSince1970: 1_795_000_000.999), Date(timeIntervalSince1970: -0.5),
    ]
    for _ in 0..<2_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // 1900 through 2300, with a fraction.
      let seconds = -2_208_988_800 + Double((state >> 11) % 12_600_000_000) + Double(state & 0xFFFF) / 65_536
      dates.append(Date(timeIntervalSince1970: seconds))
    }
    for date in dates {
      #expect(ImportRecord.timestamp(date) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
    }
  }
}

/// A calendar date without time or zone (`2026-10-20`), the date a bank prints on a statement.
///
/// Expenses have no time of day and must not shift when the machine's zone changes, so dates are
/// plain year/month/day triples with proleptic Gregorian rules, not `Foundation.Date`.
public struct CivilDate: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Creates a date, or `nil` if it does not exist (2026-02-29, 2026-04-31) or its year has
  /// more than four digits (see `representableRange`).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      day >= 1, day <= CivilDate.daysIn(year: year, month: month)
    else { return nil }
    self.init(validYear: year, month: month, day: day)
  }

  /// A date already known to exist (the bounds below, a month's first and last day).
  init(validYear year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The dates accepted from a user, a file or a request: 1900-01-01 through 2999-12-31.
  ///
  /// Why these bounds: the store files each row under its day in 20 bits (`ExpenseKey`: 1970
  /// ± 1,435 years), so a date far outside would be filed under another day and break every
  /// later read; and no bank file holds a date outside them. Every door refuses a date outside
  /// (flags, imported rows, API parameters and bodies); readers skip or report what an older
  /// version stored outside it. Arithmetic still works beyond it (a report for 1900-01 looks at
  /// the months before), within `representableRange`.
  public static let supportedRange =
    CivilDate(
      validYear: 1900, month: 1, day: 1)...CivilDate(
      validYear: 2999, month: 12, day: 31)

  /// Every date the type can hold (four-digit years, as the text form has). Arithmetic clamps
  /// into it, so no input can make date arithmetic trap.
  public static let representableRange =
    CivilDate(
      validYear: 1, month: 1, day: 1)...CivilDate(
      validYear: 9999, month: 12, day: 31)

  /// Whether the date is in `supportedRange`.
  public var isSupported: Bool { CivilDate.supportedRange.contains(self) }

  /// Parses exactly `YYYY-MM-DD` within `supportedRange`: the one parser of dates a user, a
  /// file or a request gives.
  public static func parse(_ raw: String) throws(CoreError) -> CivilDate {
    let date = try parseStored(raw)
    guard date.isSupported else { throw .dateOutOfRange(raw) }
    return date
  }

  /// Parses exactly `YYYY-MM-DD` with any four-digit year: for reading back what the store
  /// holds, where an older version may have written a date outside `supportedRange` (such a
  /// row must stay listable, editable and deletable).
  public static func parseStored(_ raw: String) throws(CoreError) -> CivilDate {
    let text = raw.trimmingASCIIWhitespace()
    let parsed = text.utf8.withContiguousStorageIfAvailable { CivilDate.parse(bytes: $0) }
    guard let date = parsed ?? CivilDate.parse(bytes: Array(text.utf8)) else { throw .invalidDate(raw) }
    return date
  }

  /// `YYYY-MM-DD` from exactly ten bytes, or nil.
  static func parse<Bytes: RandomAccessCollection<UInt8>>(bytes: Bytes) -> CivilDate? where Bytes.Index == Int {
    let base = bytes.startIndex
    guard bytes.count == 10, bytes[base + 4] == UInt8(ascii: "-"), bytes[base + 7] == UInt8(ascii: "-"),
      let y = CivilDate.number(bytes[base..<(base + 4)]), let m = CivilDate.number(bytes[(base + 5)..<(base + 7)]),
      let d = CivilDate.number(bytes[(base + 8)..<(base + 10)])
    else { return nil }
    return CivilDate(year: y, month: m, day: d)
  }

  static func number<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int? {
    var value = 0
    for byte in bytes {
      guard byte >= 48, byte <= 57 else { return nil }
      value = value * 10 + Int(byte - 48)
    }
    return value
  }

  public static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  public static func daysIn(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// `YYYY-MM-DD`, which also sorts correctly as text (how the store keeps it).
  public var description: String {
    func pad(_ n: Int, _ width: Int) -> String {
      let s = String(n)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  /// The calendar month this date falls in.
  public var calendarMonth: Month { Month(validYear: year, month: month) }

  /// Days since 1970-01-01 (negative before), for differences between dates.
  public var daysSinceEpoch: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  /// The date `days` after 1970-01-01 (Howard Hinnant's civil_from_days), the inverse of
  /// `daysSinceEpoch`. Total: a day outside `representableRange` gives its nearest end (a
  /// stored key can hold any 64-bit value), so no input traps.
  public init(daysSinceEpoch requested: Int) {
    let bounds = CivilDate.representableDays
    let days = min(max(requested, bounds.lowerBound), bounds.upperBound)
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    self.init(validYear: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
  }

  /// `daysSinceEpoch` of the ends of `representableRange`.
  static let representableDays =
    representableRange.lowerBound.daysSinceEpoch...representableRange.upperBound.daysSinceEpoch

  /// The date `days` later (earlier when negative), clamped to `representableRange`.
  public func adding(days: Int) -> CivilDate {
    let (sum, overflow) = daysSinceEpoch.addingReportingOverflow(days)
    return CivilDate(daysSinceEpoch: overflow ? (days < 0 ? Int.min : Int.max) : sum)
  }

  public static func < (a: CivilDate, b: CivilDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { self = try CivilDate.parse(text) } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

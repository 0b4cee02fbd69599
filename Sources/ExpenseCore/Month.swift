/// A calendar month (`2026-10`): the period budgets and reports are about.
public struct Month: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
  public let year: Int
  public let month: Int

  /// A month with a four-digit year, or `nil`.
  public init?(year: Int, month: Int) {
    guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
    self.init(validYear: year, month: month)
  }

  /// A month already known to be valid (a date's month, the result of clamped arithmetic).
  init(validYear year: Int, month: Int) {
    self.year = year
    self.month = month
  }

  /// The months accepted from a user or a request: 1900-01 through 2999-12, the months of
  /// `CivilDate.supportedRange` (see there why).
  public static let supportedRange = Month(validYear: 1900, month: 1)...Month(validYear: 2999, month: 12)

  /// Every month the type can hold (four-digit years); arithmetic clamps into it.
  public static let representableRange = Month(validYear: 1, month: 1)...Month(validYear: 9999, month: 12)

  /// Whether the month is in `supportedRange`.
  public var isSupported: Bool { Month.supportedRange.contains(self) }

  /// Parses exactly `YYYY-MM` within `supportedRange`; `2026-13`, `2026-1` and `0999-05` are
  /// errors. The one parser of months a user or a request gives.
  public static func parse(_ raw: String) throws(CoreError) -> Month {
    let month = try parseStored(raw)
    guard month.isSupported else { throw .monthOutOfRange(raw) }
    return month
  }

  /// Parses exactly `YYYY-MM` with any four-digit year: for naming a value an older version
  /// stored outside `supportedRange` (to remove it), never for new data.
  public static func parseStored(_ raw: String) throws(CoreError) -> Month {
    let bytes = Array(raw.trimmingASCIIWhitespace().utf8)
    guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
      let y = CivilDate.number(bytes[0..<4]), let m = CivilDate.number(bytes[5..<7]),
      let month = Month(year: y, month: m)
    else { throw .invalidMonth(raw) }
    return month
  }

  public var dayCount: Int { CivilDate.daysIn(year: year, month: month) }
  public var firstDay: CivilDate { CivilDate(validYear: year, month: month, day: 1) }
  public var lastDay: CivilDate { CivilDate(validYear: year, month: month, day: dayCount) }

  /// The month `count` months later (earlier when negative), clamped to `representableRange`:
  /// total, so no count traps (a report for 1900-01 asks for the months before it).
  public func adding(months count: Int) -> Month {
    let here = year * 12 + (month - 1)  // year is 1...9999: cannot overflow
    let (sum, overflow) = here.addingReportingOverflow(count)
    let bounds = Month.representableRange
    let low = bounds.lowerBound.year * 12 + bounds.lowerBound.month - 1
    let high = bounds.upperBound.year * 12 + bounds.upperBound.month - 1
    let index = overflow ? (count < 0 ? low : high) : min(max(sum, low), high)
    return Month(validYear: index / 12, month: index % 12 + 1)
  }

  public var previous: Month { adding(months: -1) }
  public var next: Month { adding(months: 1) }

  public func contains(_ date: CivilDate) -> Bool { date.year == year && date.month == month }

  /// `2026-10`, the year always four digits (as `CivilDate` and the store's SQL write it).
  public var description: String {
    let y = String(year)
    let m = month < 10 ? "0\(month)" : "\(month)"
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + m
  }

  static let names = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
  static let shortNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  /// `October 2026`.
  public var longName: String { "\(Month.names[month - 1]) \(year)" }
  /// `Oct`.
  public var shortName: String { Month.shortNames[month - 1] }

  public static func < (a: Month, b: Month) -> Bool { (a.year, a.month) < (b.year, b.month) }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { self = try Month.parse(text) } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

extension Month {
  /// The months from `first` through `last` that lie in `supportedRange` (the only ones a row
  /// can be dated in), or nil when none do: what a store's `monthlyTotals` reads.
  public static func supported(from first: Month, through last: Month) -> ClosedRange<Month>? {
    let (low, high) = (max(first, supportedRange.lowerBound), min(last, supportedRange.upperBound))
    return low <= high ? low...high : nil
  }
}

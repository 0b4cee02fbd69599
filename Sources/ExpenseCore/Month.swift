/// A calendar month (`2026-10`): the period budgets and reports are about.
public struct Month: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
  public let year: Int
  public let month: Int

  public init?(year: Int, month: Int) {
    guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
    self.year = year
    self.month = month
  }

  /// Parses exactly `YYYY-MM`; `2026-13` and `2026-1` are errors.
  public static func parse(_ raw: String) throws(CoreError) -> Month {
    let bytes = Array(raw.trimmingASCIIWhitespace().utf8)
    guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
      let y = CivilDate.number(bytes[0..<4]), let m = CivilDate.number(bytes[5..<7]),
      let month = Month(year: y, month: m)
    else { throw .invalidMonth(raw) }
    return month
  }

  public var dayCount: Int { CivilDate.daysIn(year: year, month: month) }
  public var firstDay: CivilDate { CivilDate(year: year, month: month, day: 1)! }
  public var lastDay: CivilDate { CivilDate(year: year, month: month, day: dayCount)! }

  /// The month `count` months later (earlier when negative).
  public func adding(months count: Int) -> Month {
    let index = year * 12 + (month - 1) + count
    return Month(year: index / 12, month: index % 12 + 1)!
  }

  public var previous: Month { adding(months: -1) }
  public var next: Month { adding(months: 1) }

  public func contains(_ date: CivilDate) -> Bool { date.year == year && date.month == month }

  /// `2026-10`.
  public var description: String {
    let m = month < 10 ? "0\(month)" : "\(month)"
    return "\(year)-\(m)"
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

/// Integer arithmetic for percentages and averages, rounded half to even.
///
/// Percentages are ratios of money; computing them in floating point would make `82.5` print
/// as `82.49999`. Everything here is exact integer division with banker's rounding.
public enum Rounding {
  /// `numerator / denominator` rounded half to even; 0 for a zero `denominator` (total: no
  /// stored value can make a report trap).
  public static func divideHalfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
    guard denominator != 0, !(numerator == .min && denominator == -1) else { return 0 }
    var q = numerator / denominator
    let r = numerator % denominator
    if r == 0 { return q }
    let twiceRemainder = (r < 0 ? -r : r) * 2
    let absDenominator = denominator < 0 ? -denominator : denominator
    let negative = (numerator < 0) != (denominator < 0)
    if twiceRemainder > absDenominator || (twiceRemainder == absDenominator && q % 2 != 0) {
      q += negative ? -1 : 1
    }
    return q
  }

  /// `value × numerator / denominator` in minor units, half-even, clamped to `Int64`.
  public static func scale(_ value: Int64, by numerator: Int64, over denominator: Int64) -> Int64 {
    clamp(divideHalfEven(Int128(value) * Int128(numerator), Int128(denominator)))
  }

  /// `value × part / whole` (with `0 <= part <= whole`) in minor units, half-even, clamped to
  /// `Int64`. Where the product would pass `Int128` (a budget near `Int64.max` times months of
  /// sums), both `part` and `whole` lose their low bits first: the ratio is what matters.
  public static func share(_ value: Int64, part: Int128, of whole: Int128) -> Int64 {
    var (part, whole) = (part, whole)
    while Int128(value).multipliedReportingOverflow(by: part).overflow {
      part >>= 1
      whole >>= 1
    }
    return clamp(divideHalfEven(Int128(value) * part, whole))
  }

  static func clamp(_ value: Int128) -> Int64 {
    if value > Int128(Int64.max) { return .max }
    if value < Int128(Int64.min) { return .min }
    return Int64(value)
  }
}

/// A percentage with one decimal, stored as tenths of a percent (`825` is 82.5 %), and the
/// whole percent rounded from the exact ratio.
///
/// Why both: rounding the tenths again to a whole percent rounds twice (66.53 % → 66.5 → 66,
/// where hledger and a calculator say 67). The whole percent is rounded once, half to even,
/// from `part / whole` itself. Encodes to JSON as a number (`82.5`, or `82` when whole).
public struct Percent: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
  /// Tenths of a percent.
  public var tenths: Int64
  /// Whole percent, rounded half to even once from the exact value.
  public private(set) var rounded: Int64

  /// A percent known only to a tenth: its whole percent is the tenths rounded half to even.
  public init(tenths: Int64) {
    self.tenths = tenths
    self.rounded = Rounding.clamp(Rounding.divideHalfEven(Int128(tenths), 10))
  }

  /// `part / whole × 100`, rounded half-even to a tenth (and, apart, to a whole percent);
  /// `nil` when `whole` is zero.
  public init?(part: Int64, of whole: Int64) {
    guard whole != 0 else { return nil }
    tenths = Rounding.clamp(Rounding.divideHalfEven(Int128(part) * 1000, Int128(whole)))
    rounded = Rounding.clamp(Rounding.divideHalfEven(Int128(part) * 100, Int128(whole)))
  }

  /// `82.5` or `82` (no trailing `.0`), the JSON and text form.
  public var description: String {
    let sign = tenths < 0 ? "-" : ""
    let magnitude = tenths.magnitude
    return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  public static func < (a: Percent, b: Percent) -> Bool { a.tenths < b.tenths }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let scaled = (try container.decode(Double.self) * 10).rounded()
    guard let tenths = Int64(exactly: scaled) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "a percent out of range")
    }
    self.init(tenths: tenths)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if tenths % 10 == 0 {
      try container.encode(tenths / 10)
    } else {
      // Exact for tenths: Double's shortest round-trip printing writes 82.5, 0.1, 12345.6.
      try container.encode(Double(tenths) / 10)
    }
  }
}

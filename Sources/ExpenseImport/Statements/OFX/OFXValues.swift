import ExpenseCore

/// The two value syntaxes of OFX that carry money and dates, read exactly.
enum OFXValues {
  /// Why a date value is refused.
  enum DateFailure: Error, Equatable {
    /// Not `YYYYMMDD[HHMMSS[.XXX]][[offset:TZ]]`, or no such day.
    case invalid
    /// A real date outside `CivilDate.supportedRange`.
    case outOfRange
  }

  /// `YYYYMMDD`, optionally followed by a time (`HHMMSS`, `.XXX`) and a zone in brackets
  /// (`[-5:EST]`): the date as written. The time and zone are not applied: the bank's statement
  /// shows the day in its own zone, and moving it by the zone would file a purchase made late
  /// in the evening under the next day.
  static func date(_ raw: String) -> Result<CivilDate, DateFailure> {
    var raw = raw
    return raw.withUTF8 { date(bytes: $0) }
  }

  static func date(bytes: UnsafeBufferPointer<UInt8>) -> Result<CivilDate, DateFailure> {
    guard bytes.count >= 8 else { return .failure(.invalid) }
    func number(_ start: Int, _ width: Int) -> Int? {
      var value = 0
      for b in bytes[start..<(start &+ width)] {
        guard b &- 0x30 < 10 else { return nil }
        value = value &* 10 &+ Int(b &- 0x30)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2) else {
      return .failure(.invalid)
    }
    var i = 8
    while i < bytes.count, bytes[i] &- 0x30 < 10 || bytes[i] == 0x2E { i &+= 1 }
    if i < bytes.count {
      // A zone: `[` … `]` at the very end, with signs, digits, `.`, `:` and letters inside.
      guard bytes[i] == 0x5B, bytes.last == 0x5D else { return .failure(.invalid) }
      for b in bytes[(i &+ 1)..<(bytes.count &- 1)] {
        let allowed =
          b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 26 || b == 0x2B || b == 0x2D || b == 0x2E || b == 0x3A
          || b == 0x20 || b == 0x5F || b == 0x2F
        guard allowed else { return .failure(.invalid) }
      }
    }
    guard let date = CivilDate(year: year, month: month, day: day) else {
      return .failure(.invalid)
    }
    guard date.isSupported else { return .failure(.outOfRange) }
    return .success(date)
  }

  /// A signed decimal (`-12.50`, `+3`, `.5`, `1234,56`) in minor units of a currency with
  /// `minorUnits` decimals. Either `.` or `,` is the decimal mark (one of them, once): some
  /// European banks write OFX amounts with a comma. Grouping separators are refused, since
  /// `1,234` would then be ambiguous. Zeros past the currency's decimals carry no value and
  /// are accepted (`-12.5000`); any other extra decimal is refused rather than rounded.
  static func amount(_ raw: String, minorUnits: Int) -> Result<Int64, AmountParser.Failure> {
    var raw = raw
    return raw.withUTF8 { amount(bytes: $0[...], minorUnits: minorUnits) }
  }

  static func amount(bytes: Slice<UnsafeBufferPointer<UInt8>>, minorUnits: Int) -> Result<Int64, AmountParser.Failure> {
    var bytes = bytes
    guard !bytes.isEmpty else { return .failure(.empty) }
    var negative = false
    if let first = bytes.first, first == 0x2D || first == 0x2B {
      negative = first == 0x2D
      bytes = bytes.dropFirst()
    }
    var whole: Int64 = 0
    var fraction: Int64 = 0
    var fractionDigits = 0
    var digits = 0
    var seenMark = false
    var overflow = false
    for b in bytes {
      if b == 0x2E || b == 0x2C {
        if seenMark { return .failure(.invalid) }
        seenMark = true
        continue
      }
      guard b &- 0x30 < 10 else { return .failure(.invalid) }
      let digit = Int64(b &- 0x30)
      digits += 1
      if seenMark {
        fractionDigits += 1
        if fractionDigits > minorUnits {
          if digit != 0 { return .failure(.tooManyDecimals) }
        } else {
          fraction = fraction &* 10 &+ digit
        }
      } else {
        let (times10, o1) = whole.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.addingReportingOverflow(digit)
        overflow = overflow || o1 || o2
        whole = next
      }
    }
    guard digits > 0 else { return .failure(.invalid) }
    if overflow { return .failure(.outOfRange) }
    for _ in min(fractionDigits, minorUnits)..<minorUnits { fraction = fraction &* 10 }
    var scale: Int64 = 1
    for _ in 0..<minorUnits { scale = scale &* 10 }
    let (scaled, o1) = whole.multipliedReportingOverflow(by: scale)
    let (total, o2) = scaled.addingReportingOverflow(fraction)
    if o1 || o2 { return .failure(.outOfRange) }
    return .success(negative ? -total : total)
  }

  /// `102` → `1.02`, `220` → `2.20`: the version as the specification names it.
  static func version(_ raw: String) -> String {
    let digits = raw.trimmingASCIIWhitespace()
    guard digits.count == 3, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return digits }
    return String(digits.prefix(1)) + "." + String(digits.dropFirst())
  }
}

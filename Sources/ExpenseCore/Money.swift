/// An exact amount of one currency: a count of minor units (cents, yen, fils) as `Int64`.
///
/// Never a floating-point number: parsing reads the decimal digits directly and formatting
/// writes them back, so every amount round-trips. Arithmetic checks the currency and traps
/// nothing silently: overflow is reported, and two currencies are never added.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Signed minor units; for expenses negative means money out.
  public var minor: Int64
  /// The currency the minor units belong to.
  public var currency: Currency

  public init(minor: Int64, currency: Currency) {
    self.minor = minor
    self.currency = currency
  }

  /// Parses a plain decimal amount such as `12.34`, `-5`, `+0.5` or `1000` exactly.
  ///
  /// Rejects more decimals than the currency has (`12.345` in USD), grouping separators and
  /// anything that is not a digit; the lenient bank-file parser lives in ExpenseImport.
  public static func parse(_ raw: String, currency: Currency) throws(CoreError) -> Money {
    let text = raw.trimmingASCIIWhitespace()
    var bytes = text.utf8[...]
    var negative = false
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    guard !bytes.isEmpty else { throw .invalidAmount(raw) }
    var whole: Int64 = 0
    var fraction: Int64 = 0
    var fractionDigits = 0
    var seenPoint = false
    var digits = 0
    for byte in bytes {
      if byte == UInt8(ascii: ".") {
        if seenPoint { throw .invalidAmount(raw) }
        seenPoint = true
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .invalidAmount(raw) }
      let digit = Int64(byte - UInt8(ascii: "0"))
      digits += 1
      if seenPoint {
        fractionDigits += 1
        if fractionDigits > currency.minorUnits {
          if digit != 0 { throw .tooManyDecimals(raw, currency) }
          continue  // trailing zeros beyond the exponent carry no value: 1.500 USD is fine
        }
        fraction = fraction * 10 + digit
      } else {
        let (times10, o1) = whole.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.addingReportingOverflow(digit)
        if o1 || o2 { throw .amountOutOfRange(raw) }
        whole = next
      }
    }
    guard digits > 0 else { throw .invalidAmount(raw) }
    for _ in fractionDigits..<max(fractionDigits, currency.minorUnits) { fraction *= 10 }
    let (scaled, o1) = whole.multipliedReportingOverflow(by: currency.scale)
    let (total, o2) = scaled.addingReportingOverflow(fraction)
    if o1 || o2 { throw .amountOutOfRange(raw) }
    return Money(minor: negative ? -total : total, currency: currency)
  }

  /// The plain decimal form, e.g. `-12.30` for USD, `1500` for JPY: what `parse` reads back.
  public var decimalString: String {
    Money.decimalString(minor: minor, minorUnits: currency.minorUnits, grouping: false)
  }

  public var description: String { "\(decimalString) \(currency.code)" }

  /// Human-readable form with symbol and thousands grouping: `$1,234.50`, `-€18.40`, `¥1,500`,
  /// `BHD 1.250` (the code when the currency has no unambiguous symbol).
  public var formatted: String { Money.format(minor: minor, currency: currency) }

  /// Formats minor units of a currency for people: sign first, then symbol, grouped digits.
  public static func format(minor: Int64, currency: Currency) -> String {
    let digits = decimalString(minor: minor.magnitude, minorUnits: currency.minorUnits, grouping: true)
    let sign = minor < 0 ? "-" : ""
    if let symbol = currency.symbol { return sign + symbol + digits }
    return sign + currency.code + " " + digits
  }

  /// Compact form for narrow layouts: `$1.2k`, `$3.4M`, exact below 10,000 major units.
  public static func formatShort(minor: Int64, currency: Currency) -> String {
    let magnitude = minor.magnitude
    let scale = UInt64(currency.scale)
    let major = magnitude / scale
    if major < 10_000 { return format(minor: minor, currency: currency) }
    let sign = minor < 0 ? "-" : ""
    let prefix = currency.symbol ?? (currency.code + " ")
    let units: [(UInt64, String)] = [(1_000_000_000_000, "T"), (1_000_000_000, "B"), (1_000_000, "M"), (1_000, "k")]
    for (unit, suffix) in units where major >= unit {
      // Split so that no step overflows: `major * 10` would for amounts over 1.8e18 major units
      // (an Int64 of yen holds up to 9.2e18).
      let tenths = major / unit * 10 + ((major % unit) * 10 + unit / 2) / unit
      let text = tenths >= 1000 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
      return sign + prefix + text + suffix
    }
    return format(minor: minor, currency: currency)
  }

  static func decimalString(minor: Int64, minorUnits: Int, grouping: Bool) -> String {
    let sign = minor < 0 ? "-" : ""
    return sign + decimalString(minor: minor.magnitude, minorUnits: minorUnits, grouping: grouping)
  }

  static func decimalString(minor magnitude: UInt64, minorUnits: Int, grouping: Bool) -> String {
    var scale: UInt64 = 1
    for _ in 0..<minorUnits { scale *= 10 }
    let whole = magnitude / scale
    let fraction = magnitude % scale
    var wholeText = String(whole)
    if grouping && wholeText.count > 3 {
      var grouped = ""
      for (index, character) in wholeText.enumerated() {
        if index > 0 && (wholeText.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(character)
      }
      wholeText = grouped
    }
    guard minorUnits > 0 else { return wholeText }
    var fractionText = String(fraction)
    while fractionText.count < minorUnits { fractionText = "0" + fractionText }
    return wholeText + "." + fractionText
  }

  /// Adds two amounts of the same currency; throws on a currency mismatch or overflow.
  public func adding(_ other: Money) throws(CoreError) -> Money {
    guard other.currency == currency else { throw .currencyMismatch(currency, other.currency) }
    let (sum, overflow) = minor.addingReportingOverflow(other.minor)
    if overflow { throw .amountOutOfRange("\(decimalString) + \(other.decimalString)") }
    return Money(minor: sum, currency: currency)
  }
}

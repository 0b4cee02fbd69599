/// An ISO 4217 currency: its three-letter code and how many minor-unit digits it has.
///
/// The exponent decides how `Money` parses and prints (JPY has 0 decimals, USD 2, BHD 3); it is
/// looked up from a table of the active ISO 4217 codes rather than guessed, so a typo such as `USX`
/// is rejected instead of silently becoming a two-decimal currency.
public struct Currency: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
  /// The upper-case ISO 4217 alphabetic code, e.g. `USD`.
  public let code: String
  /// The number of digits after the decimal mark (the ISO 4217 exponent).
  public let minorUnits: Int

  /// Looks a code up in the ISO 4217 table; `nil` when the code is not a known currency.
  public init?(code raw: String) {
    let code = raw.uppercased()
    guard let exponent = Currency.exponents[code] else { return nil }
    self.code = code
    self.minorUnits = exponent
  }

  /// Parses a code or throws `CoreError.unknownCurrency` naming it.
  public static func parse(_ raw: String) throws(CoreError) -> Currency {
    guard let currency = Currency(code: raw.trimmingASCIIWhitespace()) else {
      throw .unknownCurrency(raw)
    }
    return currency
  }

  public static let usd = Currency(code: "USD")!
  public static let eur = Currency(code: "EUR")!
  public static let jpy = Currency(code: "JPY")!

  public var description: String { code }
  public static func < (a: Currency, b: Currency) -> Bool { a.code < b.code }

  public init(from decoder: any Decoder) throws {
    let code = try decoder.singleValueContainer().decode(String.self)
    guard let currency = Currency(code: code) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "unknown currency \(code)"))
    }
    self = currency
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(code)
  }

  /// The symbol used in human-readable output, or `nil` to print the code instead.
  public var symbol: String? { Currency.symbols[code] }

  /// Minor units per major unit: 10^minorUnits.
  public var scale: Int64 {
    var value: Int64 = 1
    for _ in 0..<minorUnits { value *= 10 }
    return value
  }

  static let symbols: [String: String] = [
    "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩", "ILS": "₪",
    "NGN": "₦", "VND": "₫", "UAH": "₴", "PHP": "₱", "TRY": "₺", "RUB": "₽", "CNY": "CN¥",
    "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "HKD": "HK$", "MXN": "MX$", "BRL": "R$",
  ]

  /// ISO 4217 active codes and their exponents (codes with no minor unit use 0).
  static let exponents: [String: Int] = {
    var table: [String: Int] = [:]
    let two =
      "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD "
      + "CAD CDF CHF CNY COP CRC CUP CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ "
      + "GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL "
      + "MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN "
      + "QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP "
      + "TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWG"
    let zero = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
    let three = "BHD IQD JOD KWD LYD OMR TND"
    let four = "CLF UYW"
    for code in two.split(separator: " ") { table[String(code)] = 2 }
    for code in zero.split(separator: " ") { table[String(code)] = 0 }
    for code in three.split(separator: " ") { table[String(code)] = 3 }
    for code in four.split(separator: " ") { table[String(code)] = 4 }
    return table
  }()
}

extension String {
  /// The string without leading and trailing ASCII spaces, tabs, CR and LF (no Foundation needed).
  /// A string whose first and last bytes are none of those is returned as it is, without
  /// walking its characters (the common case: every amount and date a statement reader parses).
  public func trimmingASCIIWhitespace() -> String {
    if let first = utf8.first, let last = utf8.last, !String.isASCIIBlank(first), !String.isASCIIBlank(last) {
      return self
    }
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
    guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
    let end = lastIndex(where: { !isSpace($0) })!
    return String(self[start...end])
  }

  private static func isASCIIBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
}

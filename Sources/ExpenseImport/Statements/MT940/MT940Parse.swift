import ExpenseCore

/// The values of MT940 fields: balances (`:60F:`, `:62F:`) and entries (`:61:`).
enum MT940Parse {
  static func issue(
    _ kind: ImportIssue.Kind, file: String, field: MT940Field, column: String, message: String, hint: String
  ) -> ImportIssue {
    ImportIssue(
      kind: kind, file: file, line: field.line, column: nil, columnName: column,
      rawValue: String((field.lines.first ?? "").prefix(200)), message: message, hint: hint)
  }

  /// `C|D` `YYMMDD` `CCY` amount (`C261001EUR1234,56`): signed minor units and the currency.
  static func balance(_ field: MT940Field, file: String) throws(ImportError) -> (
    balance: Int64, currency: Currency, date: CivilDate
  ) {
    let text = Array((field.lines.first ?? "").trimmingASCIIWhitespace().utf8)
    let column = ":\(field.tag):"
    func fail(_ kind: ImportIssue.Kind, _ message: String) -> ImportError {
      .row(
        issue(
          kind, file: file, field: field, column: column, message: message,
          hint: "a balance reads C or D, the date YYMMDD, the currency and the amount, e.g. C261001EUR1234,56"))
    }
    guard text.count >= 11, text[0] == UInt8(ascii: "C") || text[0] == UInt8(ascii: "D") else {
      throw fail(.badAmount, "not a balance (C or D, date, currency, amount)")
    }
    guard let day = date(text[1..<7]) else { throw fail(.badDate, "the balance's date is not a date (YYMMDD)") }
    let code = String(decoding: text[7..<10], as: UTF8.self)
    guard let currency = Currency(code: code), code == code.uppercased() else {
      throw fail(.unknownCurrency, "\(code) is not an ISO 4217 currency code")
    }
    let amountText = String(decoding: text[10...], as: UTF8.self)
    let minor: Int64
    switch amount(amountText, currency: currency) {
    case .success(let value): minor = value
    case .failure(let message): throw fail(.badAmount, message)
    }
    return (text[0] == UInt8(ascii: "D") ? -minor : minor, currency, day)
  }

  /// The parts of a `:61:` line.
  struct Transaction {
    var date: CivilDate
    /// The value date (`YYMMDD`, first on the line): for a card payment, the day it was made.
    var valueDate: CivilDate
    var amount: Int64
    var customerReference: String
    var bankReference: String?
    var supplementary: String?
  }

  /// `YYMMDD[MMDD](D|C|RD|RC)[funds code]amount` `N|F|S`+3 type, the customer reference,
  /// `//bank reference`, and supplementary details on the next line.
  static func transaction(_ field: MT940Field, currency: Currency, file: String) throws(ImportError) -> Transaction {
    let first = Array((field.lines.first ?? "").utf8)
    func fail(_ kind: ImportIssue.Kind, _ message: String) -> ImportError {
      .row(
        issue(
          kind, file: file, field: field, column: ":61:", message: message,
          hint:
            "an entry line reads value date YYMMDD, entry date MMDD (optional), D, C, RD or RC, the amount and the type, e.g. 2610011001D12,50NTRFNONREF"
        ))
    }
    guard first.count >= 6, let valueDate = date(first[0..<6]) else {
      throw fail(.badDate, "the entry's value date is not a date (YYMMDD)")
    }
    var i = 6
    var bookingDate = valueDate
    if first.count >= 10, first[6...9].allSatisfy(isDigit) {
      guard let month = MT940Parse.number(first[6..<8]), let dayNumber = MT940Parse.number(first[8..<10]) else {
        throw fail(.badDate, "the entry date is not a date (MMDD)")
      }
      // The entry date has no year: the value date's, or the next or previous one across New Year.
      var year = valueDate.year
      if month - valueDate.month > 6 { year -= 1 }
      if valueDate.month - month > 6 { year += 1 }
      guard let booked = CivilDate(year: year, month: month, day: dayNumber), booked.isSupported else {
        throw fail(.badDate, "the entry date is not a date (MMDD)")
      }
      bookingDate = booked
      i = 10
    }
    func at(_ j: Int) -> UInt8? { j < first.count ? first[j] : nil }
    var sign: Int64
    switch (at(i), at(i + 1)) {
    case (UInt8(ascii: "R"), UInt8(ascii: "D")):
      sign = 1  // a debit reversed: money back in
      i += 2
    case (UInt8(ascii: "R"), UInt8(ascii: "C")):
      sign = -1  // a credit reversed: money out again
      i += 2
    case (UInt8(ascii: "D"), _):
      sign = -1
      i += 1
    case (UInt8(ascii: "C"), _):
      sign = 1
      i += 1
    default:
      throw fail(.badAmount, "the entry is not marked D, C, RD or RC after its dates")
    }
    if let funds = at(i), funds >= UInt8(ascii: "A"), funds <= UInt8(ascii: "Z") { i += 1 }
    let amountStart = i
    while let byte = at(i), isDigit(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".") { i += 1 }
    let amountText = String(decoding: first[amountStart..<i], as: UTF8.self)
    let magnitude: Int64
    switch amount(amountText, currency: currency) {
    case .success(let value): magnitude = value
    case .failure(let message): throw fail(.badAmount, message)
    }
    guard let kind = at(i), kind == UInt8(ascii: "N") || kind == UInt8(ascii: "F") || kind == UInt8(ascii: "S"),
      i + 4 <= first.count
    else {
      throw fail(.badAmount, "the amount is not followed by the type (N, F or S and three characters)")
    }
    i += 4
    let rest = String(decoding: first[i...], as: UTF8.self)
    var customer = rest
    var bank: String?
    if let slashes = rest.range(of: "//") {
      customer = String(rest[..<slashes.lowerBound])
      bank = String(rest[slashes.upperBound...]).trimmingASCIIWhitespace()
    }
    let supplementary = field.lines.dropFirst().map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
      .joined(separator: " ")
    return Transaction(
      date: bookingDate, valueDate: valueDate, amount: sign * magnitude,
      customerReference: customer.trimmingASCIIWhitespace(),
      bankReference: bank, supplementary: supplementary.isEmpty ? nil : supplementary)
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Two ASCII digits as a number, or nil.
  static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count == 2, bytes.allSatisfy(isDigit) else { return nil }
    return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  /// `YYMMDD` as 20YY-MM-DD.
  static func date(_ bytes: ArraySlice<UInt8>) -> CivilDate? {
    guard bytes.count == 6, bytes.allSatisfy(isDigit), let yy = MT940Parse.number(bytes.prefix(2)),
      let mm = MT940Parse.number(bytes.dropFirst(2).prefix(2)), let dd = MT940Parse.number(bytes.suffix(2))
    else { return nil }
    return CivilDate(year: 2000 + yy, month: mm, day: dd)
  }

  enum AmountResult {
    case success(Int64)
    case failure(String)
  }

  /// An MT940 amount: digits with a decimal comma (`1234,56`, `12,`), no sign, at most the
  /// currency's decimals.
  static func amount(_ text: String, currency: Currency) -> AmountResult {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ",") }),
      bytes.filter({ $0 == UInt8(ascii: ",") }).count <= 1, bytes.contains(where: isDigit)
    else { return .failure("not an amount (MT940 amounts are digits with a decimal comma, e.g. 1234,56)") }
    let dotted = String(decoding: bytes.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
    do throws(CoreError) {
      return .success(try Money.parse(dotted, currency: currency).minor)
    } catch {
      if case .tooManyDecimals = error {
        return .failure("more decimals than \(currency.code) has (\(currency.minorUnits))")
      }
      return .failure("the amount is too large")
    }
  }

  /// An amount as MT940 users read it: `1.234,56 EUR`, `-12,50 EUR`.
  static func format(_ money: Money) -> String {
    let plain = Money(minor: Int64(clamping: money.minor.magnitude), currency: money.currency).decimalString
    var whole = Substring(plain)
    var fraction: Substring = ""
    if let dot = plain.firstIndex(of: ".") {
      whole = plain[..<dot]
      fraction = plain[plain.index(after: dot)...]
    }
    var grouped = ""
    for (index, character) in whole.enumerated() {
      if index > 0 && (whole.count - index) % 3 == 0 { grouped.append(".") }
      grouped.append(character)
    }
    let sign = money.minor < 0 ? "-" : ""
    return sign + grouped + (fraction.isEmpty ? "" : "," + fraction) + " " + money.currency.code
  }
}

import ExpenseCore
import Foundation

/// Reads bank-style amounts exactly into Int64 minor units; never uses floating point.
///
/// Accepts currency symbols and codes before or after (`$12.00`, `12,00 €`, `USD 12.00`),
/// thousands separators (the other mark, `'`, `’`, space, NBSP, thin spaces), a sign as leading
/// `+`/`-`/`−`, trailing `-`, parentheses `(12.50)` or a `CR`/`DR` suffix (`DR` = money out).
/// More decimals than the currency has is an error unless they are zeros.
public struct AmountParser: Sendable, Equatable {
  /// Why a value is not an amount.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing but blanks (or a lone `-`): zero for debit/credit/fee columns.
    case empty
    /// Not a number.
    case invalid
    /// More non-zero decimals than the currency allows.
    case tooManyDecimals
    /// Does not fit in 64-bit minor units.
    case outOfRange

    /// The reason alone (the importer adds the line, column, value and a hint).
    public var description: String {
      switch self {
      case .empty: return "the amount is empty"
      case .invalid: return "not an amount"
      case .tooManyDecimals: return "more decimals than the currency has"
      case .outOfRange: return "the amount is too large"
      }
    }

    public var errorDescription: String? { description }
  }

  /// `.` or `,` as a byte.
  public var decimalMark: UInt8

  public init(decimalMark: UInt8 = UInt8(ascii: ".")) { self.decimalMark = decimalMark }

  /// Parses text (convenience for tests and options).
  public func parse(_ text: String, minorUnits: Int) -> Result<Int64, Failure> {
    var copy = text
    return copy.withUTF8 { parse($0, minorUnits: minorUnits) }
  }

  static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
  static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }

  /// Length of a blank at `i` (space, tab, NBSP in UTF-8 or one byte, thin/narrow NBSP), 0 if none.
  @inline(__always)
  static func blankLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
    let b = p[i]
    if b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A { return 1 }
    if b == 0xC2 && i + 1 < p.count && p[i + 1] == 0xA0 { return 2 }
    // NBSP of a single-byte file (Windows-1252, Latin-1: amounts are parsed from the file's
    // bytes). After an ASCII byte it cannot be part of a UTF-8 character.
    if b == 0xA0 && (i == 0 || p[i - 1] < 0x80) { return 1 }
    if b == 0xE2 && i + 2 < p.count && p[i + 1] == 0x80 && (p[i + 2] == 0xAF || p[i + 2] == 0x89 || p[i + 2] == 0x8A) {
      return 3
    }
    return 0
  }

  /// Parses the bytes of one field into signed minor units.
  public func parse(_ p: UnsafeBufferPointer<UInt8>, minorUnits: Int) -> Result<Int64, Failure> {
    if let value = AmountParser.plain(p, minorUnits: minorUnits, mark: decimalMark) { return .success(value) }
    return parseAnyForm(p, minorUnits: minorUnits)
  }

  /// `parse` without the shortcut for plain numbers.
  func parseAnyForm(_ p: UnsafeBufferPointer<UInt8>, minorUnits: Int) -> Result<Int64, Failure> {
    let n = p.count
    let mark = decimalMark
    // The number body runs from the first digit (or a mark right before a digit) to the last digit.
    var first = -1
    var last = -1
    for i in 0..<n {
      let b = p[i]
      if AmountParser.isDigit(b) {
        if first < 0 { first = (i > 0 && p[i - 1] == mark) ? i - 1 : i }
        last = i
      }
    }
    if first < 0 {
      // No digits: blank or a lone dash means empty, anything else is not a number.
      var j = 0
      while j < n {
        let blank = AmountParser.blankLength(p, j)
        if blank > 0 {
          j += blank
        } else if p[j] == 0x2D {
          j += 1
        } else {
          return .failure(.invalid)
        }
      }
      return .failure(.empty)
    }
    if last + 1 < n && p[last + 1] == mark { last += 1 }  // "12."

    // Prefix and suffix: blanks, signs, a parenthesis, symbols, a short run of letters.
    guard let prefix = AmountParser.affix(p, 0..<first, paren: 0x28, markerSign: false),
      let suffix = AmountParser.affix(p, (last + 1)..<n, paren: 0x29, markerSign: true)
    else { return .failure(.invalid) }
    var negative = prefix.negative || suffix.negative
    let openParen = prefix.paren
    let closeParen = suffix.paren
    if openParen != closeParen { return .failure(.invalid) }
    if openParen { negative = true }

    // Body: digits, one decimal mark, grouping separators after a digit.
    var i = first
    var whole: Int64 = 0
    var fraction: Int64 = 0
    var fractionDigits = 0
    var seenMark = false
    var overflow = false
    while i <= last {
      let b = p[i]
      if AmountParser.isDigit(b) {
        let digit = Int64(b &- 0x30)
        if seenMark {
          fractionDigits += 1
          if fractionDigits > minorUnits {
            if digit != 0 { return .failure(.tooManyDecimals) }
          } else {
            fraction = fraction * 10 + digit
          }
        } else {
          let (t, o1) = whole.multipliedReportingOverflow(by: 10)
          let (s, o2) = t.addingReportingOverflow(digit)
          overflow = overflow || o1 || o2
          whole = s
        }
        i += 1
        continue
      }
      if b == mark {
        if seenMark { return .failure(.invalid) }
        seenMark = true
        i += 1
        continue
      }
      // Grouping: must follow a digit, must not follow the decimal mark.
      if seenMark || i == first || !AmountParser.isDigit(p[i - 1]) { return .failure(.invalid) }
      if b == 0x2C || b == 0x2E || b == 0x27 {
        i += 1
      } else if b == 0xE2 && i + 2 < n && p[i + 1] == 0x80 && p[i + 2] == 0x99 {  // ’
        i += 3
      } else {
        let blank = AmountParser.blankLength(p, i)
        if blank == 0 { return .failure(.invalid) }
        i += blank
      }
    }
    if overflow { return .failure(.outOfRange) }
    if fractionDigits < minorUnits {
      for _ in fractionDigits..<minorUnits { fraction *= 10 }
    }
    var scale: Int64 = 1
    for _ in 0..<minorUnits { scale *= 10 }
    let (scaled, o1) = whole.multipliedReportingOverflow(by: scale)
    let (total, o2) = scaled.addingReportingOverflow(fraction)
    if o1 || o2 { return .failure(.outOfRange) }
    return .success(negative ? -total : total)
  }

  /// The common case in one pass: `-?D+` or `-?D+.D+` (`.` being the decimal mark) with at most
  /// 14 whole digits and 1…`minorUnits` decimals, which `parse` reads to the same value. `nil`
  /// for anything else (signs, symbols, grouping, more decimals): the full parser decides.
  @inline(__always)
  static func plain(_ p: UnsafeBufferPointer<UInt8>, minorUnits: Int, mark: UInt8) -> Int64? {
    let n = p.count
    guard n > 0, n <= 24 else { return nil }
    var i = 0
    let negative = p[0] == 0x2D
    if negative { i = 1 }
    var whole: Int64 = 0
    let wholeStart = i
    while i < n {
      let digit = p[i] &- 0x30
      if digit >= 10 { break }
      whole = whole &* 10 &+ Int64(digit)
      i &+= 1
    }
    let wholeDigits = i &- wholeStart
    guard wholeDigits > 0, wholeDigits <= 14 else { return nil }
    var fraction: Int64 = 0
    var fractionDigits = 0
    if i < n {
      guard p[i] == mark else { return nil }
      i &+= 1
      while i < n {
        let digit = p[i] &- 0x30
        if digit >= 10 { return nil }
        fraction = fraction &* 10 &+ Int64(digit)
        fractionDigits &+= 1
        i &+= 1
      }
      guard fractionDigits > 0, fractionDigits <= minorUnits else { return nil }
    }
    var scale: Int64 = 1
    for _ in 0..<minorUnits { scale &*= 10 }
    for _ in fractionDigits..<minorUnits { fraction &*= 10 }
    let total = whole &* scale &+ fraction
    return negative ? -total : total
  }

  /// Reads the text before or after the number: blanks, `+`/`-`/`−`, the parenthesis `paren`,
  /// currency symbols (letters touching a symbol belong to it: `US$`, `HK$`), and runs of
  /// letters that must be markers (`isMarker`); with `markerSign`, `DR` makes it negative.
  /// `nil` when anything else is there.
  static func affix(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, paren: UInt8, markerSign: Bool)
    -> (negative: Bool, paren: Bool)?
  {
    var negative = false
    var sawParen = false
    var letters = 0
    var letterStart = -1
    func endLetters() -> Bool {
      defer { letters = 0 }
      guard letters > 0 else { return true }
      guard isMarker(p, letterStart, letters) else { return false }
      if markerSign && letters == 2 && (p[letterStart] | 0x20) == 0x64 && (p[letterStart + 1] | 0x20) == 0x72 {
        negative = true
      }
      return true
    }
    var i = range.lowerBound
    while i < range.upperBound {
      let b = p[i]
      let blank = blankLength(p, i)
      if blank > 0 {
        guard endLetters() else { return nil }
        i += blank
        continue
      }
      if b == 0x2D {
        negative = true
      } else if b == 0x2B {
      } else if b == paren {
        sawParen = true
      } else if b == 0xE2 && i + 2 < p.count && p[i + 1] == 0x88 && p[i + 2] == 0x92 {  // U+2212 minus
        negative = true
        i += 3
        continue
      } else if isLetter(b) {
        if letters == 0 { letterStart = i }
        letters += 1
        if letters > 3 { return nil }
      } else if b == 0x24 || b >= 0x80 {  // $ or any non-ASCII symbol byte (€ £ ¥ ₹ …)
        letters = 0
      } else {
        return nil
      }
      i += 1
    }
    guard endLetters() else { return nil }
    return (negative, sawParen)
  }

  /// Whether a run of ASCII letters beside a number is a marker a bank would print: an ISO 4217
  /// code (`USD 12.00`, `12,00 EUR`), `CR`/`DR`, `kr` (krona/krone) or `R` (rand). Anything
  /// else (`12.3x`, `12abc`) makes the value not an amount, rather than silently a number.
  static func isMarker(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Bool {
    var text = ""
    for k in start..<(start + count) { text.unicodeScalars.append(Unicode.Scalar(p[k] & ~0x20)) }
    switch count {
    case 1: return text == "R"
    case 2: return text == "CR" || text == "DR" || text == "KR"
    case 3: return Currency(code: text) != nil
    default: return false
    }
  }

  /// What one value says about the decimal mark.
  enum Vote: Equatable { case dot, comma, ambiguous, none }

  /// `1.234,56` → comma; `1,234.56` → dot; `12,50` → comma; `1,234` → ambiguous; `12` → none.
  static func vote(_ text: String) -> Vote {
    var dots = 0
    var commas = 0
    var lastSeparator: UInt8 = 0
    var digitsAfterLast = 0
    for b in text.utf8 {
      if b == 0x2E || b == 0x2C {
        if b == 0x2E { dots += 1 } else { commas += 1 }
        lastSeparator = b
        digitsAfterLast = 0
      } else if isDigit(b) {
        digitsAfterLast += 1
      }
    }
    if dots > 0 && commas > 0 { return lastSeparator == 0x2E ? .dot : .comma }
    if commas > 1 { return .dot }
    if dots > 1 { return .comma }
    if commas == 1 { return digitsAfterLast == 3 ? .ambiguous : .comma }
    if dots == 1 { return digitsAfterLast == 3 ? .ambiguous : .dot }
    return .none
  }
}

extension AmountParser.Failure: ClassifiedError {
  /// A value that is not an amount is bad data.
  public var kind: ErrorKind { .badData }
}

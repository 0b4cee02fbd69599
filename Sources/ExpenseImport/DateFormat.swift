import ExpenseCore

/// A date layout: the order of year, month and day, read leniently from bytes.
///
/// Separators are any of `/ - . space ,`; day and month take one or two digits; years take four
/// digits or two (`00`–`69` → 20xx, `70`–`99` → 19xx). A run of 8 digits is split as the order
/// says (`YYYYMMDD`), 6 digits likewise with a two-digit year. Text after the date that starts
/// with `T` or a space (a time: `2026-10-20T14:33:00Z`, `20/10/2026 14:33`) is ignored. English
/// and German month names (`20 Oct 2026`, `Oct 20, 2026`, `20-Okt-26`) parse under any order.
/// Years outside 1900–2199 are rejected as implausible.
public struct DateFormat: Sendable, Equatable, CustomStringConvertible {
  public enum Order: String, Sendable, Equatable, CaseIterable { case ymd, dmy, mdy }
  public var order: Order
  /// Separator used for display (`/`, `-`, `.`), `nil` for compact `YYYYMMDD`.
  public var separator: Character?
  /// Whether the file's years have two digits (display only; both widths parse).
  public var twoDigitYear: Bool

  public init(order: Order, separator: Character? = "-", twoDigitYear: Bool = false) {
    self.order = order
    self.separator = separator
    self.twoDigitYear = twoDigitYear
  }

  /// Reads a `--date-format` pattern: tokens `YYYY YY MM M DD D` (and `MMM` for month names)
  /// with any separators, e.g. `DD.MM.YYYY`, `M/D/YY`, `YYYYMMDD`. `nil` when it is not one.
  public init?(pattern: String) {
    var tokens: [(Character, Int)] = []
    var separator: Character?
    for ch in pattern.uppercased() {
      if ch == "Y" || ch == "M" || ch == "D" {
        if let lastToken = tokens.last, lastToken.0 == ch {
          tokens[tokens.count - 1].1 += 1
        } else {
          tokens.append((ch, 1))
        }
      } else if ch.isLetter || ch.isNumber {
        return nil
      } else if separator == nil {
        separator = ch
      }
    }
    guard tokens.count == 3, Set(tokens.map(\.0)).count == 3 else { return nil }
    let letters = String(tokens.map(\.0))
    switch letters {
    case "YMD": order = .ymd
    case "DMY": order = .dmy
    case "MDY": order = .mdy
    default: return nil
    }
    guard let year = tokens.first(where: { $0.0 == "Y" }), year.1 == 2 || year.1 == 4 else { return nil }
    self.separator = separator
    self.twoDigitYear = year.1 == 2
  }

  /// `DD/MM/YYYY`, `YYYY-MM-DD`, `YYYYMMDD`.
  public var description: String {
    let y = twoDigitYear ? "YY" : "YYYY"
    let parts: [String]
    switch order {
    case .ymd: parts = [y, "MM", "DD"]
    case .dmy: parts = ["DD", "MM", y]
    case .mdy: parts = ["MM", "DD", y]
    }
    return parts.joined(separator: separator.map { String($0) } ?? "")
  }

  /// Parses text (convenience for tests).
  public func date(_ text: String) -> CivilDate? {
    var copy = text
    return copy.withUTF8 { date($0) }
  }

  /// Parses the bytes of one field, or `nil`.
  public func date(_ p: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    guard let t = DateTokens(p) else { return nil }
    return t.date(order)
  }
}

/// Up to three tokens of a date field: numbers (value and digit count) or one month name.
struct DateTokens {
  var values: (Int, Int, Int) = (0, 0, 0)
  var widths: (Int, Int, Int) = (0, 0, 0)
  /// Index of the token that is a month name, or -1.
  var nameIndex = -1
  var count = 0
  /// First and second numeric parts, for day/month order detection.
  var separatorByte: UInt8 = 0

  init?(_ p: UnsafeBufferPointer<UInt8>) {
    let n = p.count
    var i = 0
    while i < n && (p[i] == 0x20 || p[i] == 0x09) { i += 1 }
    while i < n {
      let b = p[i]
      if count == 3 {
        // Only a time may follow: 'T' or a blank.
        if b == 0x54 || b == 0x20 || b == 0x09 { break }
        return nil
      }
      if b &- 0x30 < 10 {
        var v = 0
        var w = 0
        while i < n && p[i] &- 0x30 < 10 {
          if w < 9 { v = v * 10 + Int(p[i] &- 0x30) }
          w += 1
          i += 1
        }
        set(count, v, w)
        count += 1
      } else if (b | 0x20) &- 0x61 < 26 || b >= 0xC0 {
        if nameIndex >= 0 { return nil }
        var key: UInt32 = 0
        var key3: UInt32 = 0
        var letters = 0
        while i < n && ((p[i] | 0x20) &- 0x61 < 26 || p[i] >= 0x80) {
          if letters < 4 {
            var c = UInt32(p[i] | 0x20)
            if p[i] == 0xC3 && i + 1 < n, let folded = DateTokens.fold(p[i + 1]) {  // ä é è ê û
              c = UInt32(folded)
              i += 1
            }
            key = key << 8 | c
            if letters < 3 { key3 = key }
          }
          letters += 1
          i += 1
        }
        // Four letters first (French "juin"/"juil"), then the three-letter stem.
        guard let month = (letters >= 4 ? DateTokens.monthNames[key] : nil) ?? DateTokens.monthNames[key3] else {
          return nil
        }
        set(count, month, 0)
        nameIndex = count
        count += 1
        if i < n && p[i] == 0x2E { i += 1 }  // "Okt."
      } else if b == 0x2F || b == 0x2D || b == 0x2E || b == 0x20 || b == 0x2C || b == 0x09 {
        if count == 1 && separatorByte == 0 { separatorByte = b }
        i += 1
      } else {
        return nil
      }
    }
    if count == 1 && nameIndex < 0 && (widths.0 == 8 || widths.0 == 6) { return }  // compact, split by order
    guard count == 3 else { return nil }
  }

  @inline(__always)
  mutating func set(_ index: Int, _ value: Int, _ width: Int) {
    switch index {
    case 0: values.0 = value; widths.0 = width
    case 1: values.1 = value; widths.1 = width
    default: values.2 = value; widths.2 = width
    }
  }

  static let monthNames: [UInt32: Int] = {
    var table: [UInt32: Int] = [:]
    // English, German, Dutch, French, Spanish, Italian: three-letter stems, and four letters
    // where French needs them (juin, juillet).
    let names = [
      ["jan", "ene", "gen"], ["feb", "fev"], ["mar", "mrz", "maa", "mrt"], ["apr", "avr", "abr"],
      ["may", "mai", "mei", "mag"], ["jun", "juin", "giu"], ["jul", "juil", "lug"], ["aug", "aou", "ago"],
      ["sep", "set"], ["oct", "okt", "ott"], ["nov"], ["dec", "dez", "dic"],
    ]
    for (index, list) in names.enumerated() {
      for name in list {
        var key: UInt32 = 0
        for b in name.utf8 { key = key << 8 | UInt32(b) }
        table[key] = index + 1
      }
    }
    return table
  }()

  /// The ASCII letter for the second byte of a two-byte Latin-1 letter starting 0xC3, for the
  /// accents month names carry (ä é è ê û, either case).
  static func fold(_ second: UInt8) -> UInt8? {
    switch second | 0x20 {
    case 0xA4: return 0x61  // ä
    case 0xA8, 0xA9, 0xAA: return 0x65  // è é ê
    case 0xBB: return 0x75  // û
    default: return nil
    }
  }

  static func year(_ value: Int, width: Int) -> Int? {
    if width == 4 { return value }
    if width == 2 { return value < 70 ? 2000 + value : 1900 + value }
    return nil
  }

  static func make(_ y: Int?, _ m: Int, _ d: Int) -> CivilDate? {
    guard let y, (1900...2199).contains(y) else { return nil }
    return CivilDate(year: y, month: m, day: d)
  }

  func date(_ order: DateFormat.Order) -> CivilDate? {
    if count == 1 {
      let v = values.0
      let w = widths.0
      let yw = w == 8 ? 4 : 2
      let (a, b, c): (Int, Int, Int)
      switch order {
      case .ymd:
        (a, b, c) = (v / 10_000, (v / 100) % 100, v % 100)
        return DateTokens.make(DateTokens.year(a, width: yw), b, c)
      case .dmy:
        let s = w == 8 ? 1_000_000 : 10_000
        let rest = w == 8 ? 10_000 : 100
        (a, b, c) = (v / s, (v / rest) % 100, v % rest)
        return DateTokens.make(DateTokens.year(c, width: yw), b, a)
      case .mdy:
        let s = w == 8 ? 1_000_000 : 10_000
        let rest = w == 8 ? 10_000 : 100
        (a, b, c) = (v / s, (v / rest) % 100, v % rest)
        return DateTokens.make(DateTokens.year(c, width: yw), a, b)
      }
    }
    if nameIndex >= 0 {
      // The month is named; of the two numbers, a 4-digit one (or the last) is the year.
      let nums = [(values.0, widths.0), (values.1, widths.1), (values.2, widths.2)].enumerated()
        .filter { $0.offset != nameIndex }.map(\.element)
      let month = [values.0, values.1, values.2][nameIndex]
      if nums[0].1 == 4 { return DateTokens.make(nums[0].0, month, nums[1].0) }
      guard nums[0].1 <= 2 else { return nil }
      return DateTokens.make(DateTokens.year(nums[1].0, width: nums[1].1), month, nums[0].0)
    }
    guard widths.0 <= 4, widths.1 <= 2, widths.2 <= 4 else { return nil }
    switch order {
    case .ymd:
      guard widths.2 <= 2 else { return nil }
      return DateTokens.make(DateTokens.year(values.0, width: widths.0), values.1, values.2)
    case .dmy:
      guard widths.0 <= 2 else { return nil }
      return DateTokens.make(DateTokens.year(values.2, width: widths.2), values.1, values.0)
    case .mdy:
      guard widths.0 <= 2 else { return nil }
      return DateTokens.make(DateTokens.year(values.2, width: widths.2), values.0, values.1)
    }
  }
}

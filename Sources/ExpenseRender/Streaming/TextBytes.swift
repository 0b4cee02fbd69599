/// What a stored text's UTF-8 bytes need before a streaming renderer may copy them: the test
/// that lets most rows skip `TerminalText.sanitize`, `DisplayWidth` and their `String`s.
///
/// The bytes are valid UTF-8 (`ExpenseRow` guarantees it). Each case is decided by the bytes
/// alone and says exactly when the general functions would leave the text unchanged.
enum TextBytes {
  enum Kind {
    /// Printable ASCII only (0x20–0x7E): sanitizing changes nothing, each byte is one
    /// `Character` one cell wide (`DisplayWidth.isPlainASCII`).
    case plainASCII
    /// Not plain ASCII, but holds nothing `TerminalText.sanitize` replaces or `SafeJSON`
    /// escapes: no C0 control, DEL, C1 control, line or paragraph separator or bidi control.
    case inert
    /// Holds something sanitizing replaces: only the general path writes it.
    case needsSanitizing
  }

  static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind { scan(bytes).kind }

  /// The text's kind, and whether it holds one of two ASCII bytes (`"` and `,` for a CSV cell):
  /// one pass, eight bytes at a time while they are printable ASCII.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, _ special1: UInt8 = 0, _ special2: UInt8 = 0
  ) -> (kind: Kind, special: Bool) {
    guard let base = bytes.baseAddress else { return (.plainASCII, false) }
    let count = bytes.count
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let pattern1 = ones &* UInt64(special1)
    let pattern2 = ones &* UInt64(special2)
    var special = false
    var index = 0
    while index + 8 <= count {
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let below = (word &- ones &* 0x20) & ~word & highs  // a byte under 0x20
      let above = ((word &+ ones) | word) & highs  // a byte of 0x7F or more
      if below | above != 0 { break }
      let x1 = word ^ pattern1
      let x2 = word ^ pattern2
      if (x1 &- ones) & ~x1 & highs != 0 || (x2 &- ones) & ~x2 & highs != 0 { special = true }
      index += 8
    }
    var ascii = true
    while index < count {
      let byte = bytes[index]
      if byte < 0x80 {
        if byte < 0x20 || byte == 0x7F { return (.needsSanitizing, special) }
        if byte == special1 || byte == special2 { special = true }
        index += 1
        continue
      }
      ascii = false
      // Lead bytes of the scalars sanitizing replaces; every other scalar is kept as it is.
      let next = index + 1 < count ? bytes[index + 1] : 0
      switch byte {
      case 0xC2 where next < 0xA0:  // U+0080–U+009F, the C1 controls
        return (.needsSanitizing, special)
      case 0xD8 where next == 0x9C:  // U+061C ARABIC LETTER MARK
        return (.needsSanitizing, special)
      case 0xE2:
        let third = index + 2 < count ? bytes[index + 2] : 0
        // U+200E/U+200F, U+2028–U+202E; U+2066–U+2069.
        if next == 0x80 && (third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third)) {
          return (.needsSanitizing, special)
        }
        if next == 0x81 && (0xA6...0xA9).contains(third) { return (.needsSanitizing, special) }
      default: break
      }
      index += 1
    }
    return (ascii ? .plainASCII : .inert, special)
  }
}

extension OutputBuffer {
  /// An amount's decimal form as `Money.decimalString` writes it (`-1234.50`, `1500`), or with
  /// `grouped` as the digits of `Money.format` (`1,234.50`); `signed: false` leaves the sign
  /// out (the caller writes its own).
  mutating func appendAmount(_ minor: Int64, minorUnits: Int, grouped: Bool = false, signed: Bool = true) {
    if signed && minor < 0 { append(UInt8(ascii: "-")) }
    let magnitude = minor.magnitude
    var scale: UInt64 = 1
    for _ in 0..<minorUnits { scale *= 10 }
    appendDigits(magnitude / scale, grouped: grouped)
    guard minorUnits > 0 else { return }
    append(UInt8(ascii: "."))
    let fraction = magnitude % scale
    var leading = minorUnits - 1
    var rest = fraction / 10
    while rest > 0 {
      leading -= 1
      rest /= 10
    }
    for _ in 0..<max(0, leading) { append(UInt8(ascii: "0")) }
    appendDigits(fraction, grouped: false)
  }

  /// `text` between double quotes, each `"` and `\` escaped with a backslash: a JSON string of
  /// inert text (`SafeJSON` escapes nothing else in it), and beancount's string of simple text.
  mutating func appendBackslashQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(UInt8(ascii: "\""))
    var start = 0
    for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") {
      append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
      append(UInt8(ascii: "\\"))
      start = index
    }
    append(UnsafeBufferPointer(rebasing: bytes[start...]))
    append(UInt8(ascii: "\""))
  }
}

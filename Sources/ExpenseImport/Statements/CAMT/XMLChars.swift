/// The character classes of XML 1.0 (fifth edition), which libxml2 applies to XML 1.0
/// documents: the characters a document may hold, and those a name may start with or contain.
enum XMLChars {
  /// `Char`: tab, line feed, carriage return, and U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
  @inline(__always)
  static func isChar(_ v: UInt32) -> Bool {
    if v < 0x20 { return v == 0x09 || v == 0x0A || v == 0x0D }
    if v <= 0xD7FF { return true }
    if v < 0xE000 { return false }
    if v <= 0xFFFD { return true }
    return v >= 0x10000 && v <= 0x10FFFF
  }

  /// `NameStartChar`.
  static func isNameStart(_ v: UInt32) -> Bool {
    if v < 0x80 {
      return (v | 0x20) &- 0x61 < 26 || v == 0x5F || v == 0x3A
    }
    switch v {
    case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
      0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
      return true
    default:
      return false
    }
  }

  /// `NameChar`.
  static func isNameChar(_ v: UInt32) -> Bool {
    if v < 0x80 {
      return (v | 0x20) &- 0x61 < 26 || v &- 0x30 < 10 || v == 0x5F || v == 0x3A || v == 0x2D || v == 0x2E
    }
    return isNameStart(v) || v == 0xB7 || (v >= 0x300 && v <= 0x36F) || v == 0x203F || v == 0x2040
  }

  /// An ASCII byte that may stand in a name, not first (letters, digits, `_ : - .`).
  @inline(__always)
  static func isASCIINameByte(_ b: UInt8) -> Bool {
    (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == 0x5F || b == 0x3A || b == 0x2D || b == 0x2E
  }

  @inline(__always)
  static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// The scalar a UTF-8 sequence starting with `lead` encodes, given the bytes after it
  /// (`next(0)`, `next(1)`, `next(2)`), and its length; nil for a sequence that is not UTF-8
  /// (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut short).
  @inline(__always)
  static func decode(_ lead: UInt8, available: Int, _ next: (Int) -> UInt8) -> (UInt32, Int)? {
    if lead < 0x80 { return (UInt32(lead), 1) }
    let length: Int
    var v: UInt32
    switch lead {
    case 0xC2...0xDF:
      length = 2
      v = UInt32(lead & 0x1F)
    case 0xE0...0xEF:
      length = 3
      v = UInt32(lead & 0x0F)
    case 0xF0...0xF4:
      length = 4
      v = UInt32(lead & 0x07)
    default:
      return nil
    }
    guard available >= length else { return nil }
    for i in 0..<(length &- 1) {
      let c = next(i)
      guard c & 0xC0 == 0x80 else { return nil }
      v = v << 6 | UInt32(c & 0x3F)
    }
    switch length {
    case 3 where v < 0x800 || (v >= 0xD800 && v <= 0xDFFF): return nil
    case 4 where v < 0x10000 || v > 0x10FFFF: return nil
    default: return (v, length)
    }
  }
}

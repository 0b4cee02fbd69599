#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The upper halves (0x80–0xFF) of single-byte encodings as Unicode, from the C library's
/// converters (nil: undefined in the encoding), for choosing between encodings by their letters.
enum SingleByteTables {
  static let windows1252: [Unicode.Scalar?] = table("CP1252")
  static let windows1250: [Unicode.Scalar?] = table("CP1250")
  static let iso88592: [Unicode.Scalar?] = table("ISO-8859-2")
  static let iso885915: [Unicode.Scalar?] = table("ISO-8859-15")

  static func table(_ name: String) -> [Unicode.Scalar?] {
    (0x80...0xFF).map { byte in decode(UInt8(byte), from: name) }
  }

  static func decode(_ byte: UInt8, from name: String) -> Unicode.Scalar? {
    let converter = iconv_open("UTF-32LE", name)
    if converter == iconv_t(bitPattern: -1) { return nil }
    defer { iconv_close(converter) }
    var input: [CChar] = [CChar(bitPattern: byte)]
    var output = [CChar](repeating: 0, count: 8)
    let produced = input.withUnsafeMutableBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer -> Int in
        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
        var inLeft = 1
        var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
        var outLeft = outBuffer.count
        if iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) == -1 { return 0 }
        return outBuffer.count - outLeft
      }
    }
    guard produced == 4 else { return nil }
    let value = output.prefix(4).enumerated().reduce(UInt32(0)) {
      $0 | UInt32(UInt8(bitPattern: $1.element)) << (8 * $1.offset)
    }
    return Unicode.Scalar(value)
  }

  /// `bytes` read in a Latin single-byte encoding, for messages (undefined bytes become U+FFFD).
  static func decode(_ bytes: [UInt8], from encoding: TextEncoding) -> String {
    let high: [Unicode.Scalar?]
    switch encoding {
    case .windows1250: high = windows1250
    case .iso88592: high = iso88592
    case .iso885915: high = iso885915
    case .latin1: high = (0x80...0xFF).map { Unicode.Scalar(UInt32($0)) }
    default: high = windows1252
    }
    var out = String.UnicodeScalarView()
    for b in bytes {
      out.append(b < 0x80 ? Unicode.Scalar(b) : high[Int(b) - 0x80] ?? "\u{FFFD}")
    }
    return String(out)
  }
}

/// How field bytes (after any UTF-16 transcoding) become Strings.
enum FieldText: Sendable, Equatable {
  /// UTF-8, invalid bytes are an error (`--encoding utf-8`, or UTF-16 input).
  case utf8Strict
  /// UTF-8 detected from an ASCII sample; a field with invalid bytes is read as Windows-1252,
  /// unless it also holds valid multi-byte UTF-8 (then it is damaged UTF-8, and refused).
  case utf8Fallback
  /// UTF-8 (or transcoded), invalid bytes become U+FFFD (`--replace-invalid`); `replaced` says so.
  case utf8Replacing
  case windows1252
  case latin1
}

/// Converts field bytes to text; keeps one scratch buffer so decoding does not allocate twice.
struct TextDecoder {
  var mode: FieldText
  var scratch: [UInt8] = []
  /// Set when a `utf8Fallback` field had to be read as Windows-1252.
  var usedFallback = false
  /// Set when a `utf8Replacing` field had invalid bytes replaced (the importer resets it per row).
  var replaced = false
  /// Set when a cell could not be decoded (a category or account cell then reads as empty: the
  /// importer refuses the row instead, and resets it per row).
  var failed = false

  init(mode: FieldText) { self.mode = mode }

  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in bytes where b >= 0x80 { return false }
    return true
  }

  /// The text, or `nil` when the bytes are invalid under a strict encoding.
  mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    if TextDecoder.isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
    switch mode {
    case .utf8Strict:
      return isValidUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    case .utf8Fallback:
      if isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
      // "Café" with a stray byte is damaged UTF-8: read as Windows-1252 its é would become "Ã©".
      if countUTF8Sequences(bytes).valid > 0 { return nil }
      usedFallback = true
      return singleByte(bytes, windows: true)
    case .utf8Replacing:
      if isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
      replaced = true
      return String(decoding: bytes, as: UTF8.self)
    case .windows1252: return singleByte(bytes, windows: true)
    case .latin1: return singleByte(bytes, windows: false)
    }
  }

  mutating func singleByte(_ bytes: UnsafeBufferPointer<UInt8>, windows: Bool) -> String {
    scratch.removeAll(keepingCapacity: true)
    for b in bytes {
      var scalar = UInt32(b)
      if b >= 0x80 && b < 0xA0 && windows {
        let mapped = TextDecoder.cp1252[Int(b - 0x80)]
        scalar = mapped == 0 ? UInt32(b) : UInt32(mapped)
      }
      appendUTF8(scalar)
    }
    return String(decoding: scratch, as: UTF8.self)
  }

  mutating func appendUTF8(_ scalar: UInt32) {
    if scalar < 0x80 {
      scratch.append(UInt8(scalar))
    } else if scalar < 0x800 {
      scratch.append(UInt8(0xC0 | (scalar >> 6)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    } else {
      scratch.append(UInt8(0xE0 | (scalar >> 12)))
      scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }

  /// Windows-1252 0x80–0x9F (0 = undefined, kept as the C1 control).
  static let cp1252: [UInt16] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,
    0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0, 0x017E, 0x0178,
  ]
}

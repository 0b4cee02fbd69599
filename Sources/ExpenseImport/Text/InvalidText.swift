/// Where a field's bytes stop being valid UTF-8, and what a refused row or a repaired one says.
enum InvalidText {
  /// The 1-based position in `p` of the first byte that is not part of valid UTF-8, and the byte.
  static func firstInvalid(_ p: UnsafeBufferPointer<UInt8>) -> (position: Int, byte: UInt8)? {
    firstInvalidUTF8Offset(p).map { ($0 + 1, p[$0]) }
  }

  /// "invalid UTF-8 at byte 5 of the field (0xE4)"; for a transcoded encoding, the bytes that
  /// encoding does not define.
  static func message(_ p: UnsafeBufferPointer<UInt8>, encoding: TextEncoding) -> String {
    guard encoding == .utf8, let bad = firstInvalid(p) else { return "bytes that are not valid \(encoding.rawValue)" }
    return "invalid UTF-8 at byte \(bad.position) of the field (\(hex(bad.byte)))"
  }

  static func hint(encoding: TextEncoding) -> String {
    if encoding == .utf8 {
      return
        "the rest of the file is UTF-8: fix the row, or --replace-invalid keeps it with U+FFFD (�) for the bad bytes"
    }
    return
      "the file may be in another encoding: name it with --encoding (windows-1252, shift_jis, gb18030, euc-kr, ...);"
      + " --replace-invalid keeps the row with U+FFFD (�) for the bad bytes"
  }

  /// The warning for a field kept with U+FFFD (`--replace-invalid`). In a transcoded file the
  /// bytes are those the encoding does not define (their position is not the file's).
  static func replacedWarning(line: Int, column: Int, _ p: UnsafeBufferPointer<UInt8>, encoding: TextEncoding)
    -> String
  {
    guard encoding == .utf8 else {
      return "line \(line), column \(column): bytes not valid in \(encoding.rawValue) replaced with U+FFFD"
    }
    let at = firstInvalid(p).map { " at byte \($0.position) of the field (\(hex($0.byte)))" } ?? ""
    return "line \(line), column \(column): invalid UTF-8\(at) replaced with U+FFFD"
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
  }
}

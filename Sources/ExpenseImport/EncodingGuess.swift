#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tells a real Windows-1252 file (German, French, Spanish bank exports) from one in another
/// legacy encoding that only happens not to be UTF-8 (Shift_JIS, EUC-KR, GBK, Windows-1251).
///
/// Why: read as Windows-1252, 山田下社 in EUC-JP becomes `»³ÅÄ²¼¼Ò` and was stored without a
/// word. In Western text the non-ASCII letters stand alone inside ASCII words (`Müller`,
/// `Café`); in CJK or Cyrillic text nearly every non-ASCII byte is part of a run of three or more.
enum EncodingGuess {
  /// The first text of the sample that reads implausibly as Windows-1252, with its line, or nil
  /// when the sample is plausible Western text.
  static func implausibleWindows1252(_ sample: [UInt8]) -> (line: Int, text: String)? {
    var nonASCII = 0
    var inRuns = 0
    var run = 0
    var first: (line: Int, start: Int)?
    var line = 1
    var runStart = 0
    for (i, b) in sample.enumerated() {
      if b >= 0x80 {
        if run == 0 { runStart = i }
        run += 1
        nonASCII += 1
        continue
      }
      if run >= 3 {
        inRuns += run
        if first == nil { first = (line, runStart) }
      }
      run = 0
      if b == 0x0A { line += 1 }
    }
    if run >= 3 {
      inRuns += run
      if first == nil { first = (line, runStart) }
    }
    guard nonASCII >= 6, inRuns * 2 > nonASCII, let first else { return nil }
    var end = min(sample.count, first.start + 24)
    if let lineEnd = sample[first.start..<end].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) { end = lineEnd }
    var decoder = TextDecoder(mode: .windows1252)
    let text = sample[first.start..<end].withUnsafeBufferPointer { decoder.decode($0) } ?? ""
    return (first.line, visibleControlCharacters(text))
  }

  /// The multi-byte encodings that read the whole sample without an undefined sequence (a
  /// sample cut mid-character at its end is allowed), best guesses first.
  static func cleanDecodings(_ sample: [UInt8], truncated: Bool) -> [TextEncoding] {
    let candidates: [TextEncoding] = [.shiftJIS, .eucJP, .eucKR, .gb18030, .big5]
    return candidates.filter { encoding in
      guard let name = encoding.iconvName else { return false }
      let converter = iconv_open("UTF-8", name)
      if converter == iconv_t(bitPattern: -1) { return false }
      defer { iconv_close(converter) }
      var input = sample.map { CChar(bitPattern: $0) }
      var output = [CChar](repeating: 0, count: sample.count * 4 + 16)
      return input.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
          var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
          var inLeft = inBuffer.count
          var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
          var outLeft = outBuffer.count
          let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
          return result != -1 || (errno == EINVAL && truncated)
        }
      }
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Works out the encoding of a file that is not UTF-8 or UTF-16, with uchardet, and refuses the
/// file rather than store garbled text when the answer cannot be trusted.
///
/// Steps: uchardet names an encoding from the detection sample; an exact answer the importer
/// reads is taken (Windows-1251, KOI8-R, Shift_JIS, EUC-JP, EUC-KR, GB18030, Big5); a Western or
/// Central European answer picks its family, whose member the sample's bytes decide
/// (`LatinFamily.member`); another Latin answer, or none, is decided by which family reads more
/// of the sample as letters; a script the importer has no encoding for is refused. A Latin choice
/// is then checked against the text looking garbled (runs of three or more non-ASCII bytes are
/// CJK or Cyrillic, not Western or Central European words).
enum EncodingGuess {
  /// The encoding of `sample` and why, as the dialect shows it.
  static func detect(_ sample: [UInt8], truncated: Bool, file: String) throws(ImportError) -> (TextEncoding, String) {
    if let unicode = detectUnicode(sample, truncated: truncated) { return unicode }
    // Binary data is not text in any encoding: the detector refuses it as such.
    if Detector.binaryContent(sample) != nil { return (.windows1252, "not text") }
    let answer = Uchardet.charset(of: sample)
    let histogram = ByteHistogram(sample)
    let encoding: TextEncoding
    let reason: String
    switch UchardetName(answer) {
    case .exact(let exact):
      encoding = exact
      reason = "detected by uchardet"
    case .family(let family):
      encoding = family.member(for: histogram)
      reason =
        answer?.lowercased() == encoding.rawValue
        ? "detected by uchardet" : "detected by uchardet, which said \(answer ?? "")"
    case .otherLatin:
      encoding = LatinFamily.byLetters(histogram).member(for: histogram)
      let said =
        answer.map { "uchardet said \($0), which the importer does not read" }
        ?? (Uchardet.isAvailable
          ? "uchardet had no answer" : "libuchardet is not installed (apt-get install libuchardet0)")
      reason = "\(said); its letters read best as \(encoding.rawValue)"
    case .unsupported(let name):
      let line = firstInvalidUTF8Line(sample[...])
      throw refusal(
        sample, truncated: truncated, file: file,
        message:
          "line \(line): the file is not UTF-8, and uchardet takes it for \(name), which the importer does not read",
        convert: name)
    }
    if encoding.isLatinSingleByte, let garbled = implausibleWindows1252(sample, as: encoding) {
      // Garbled text is never stored silently: name the encodings that read the file cleanly.
      throw refusal(
        sample, truncated: truncated, file: file,
        message:
          "line \(garbled.line): the file is not UTF-8, and read as \(encoding.rawValue) its text looks garbled (\"\(garbled.text)\")",
        convert: nil)
    }
    return (encoding, reason)
  }

  /// The refusal naming the encodings that read the sample cleanly (and how to convert the file
  /// when uchardet named one the importer does not read).
  static func refusal(_ sample: [UInt8], truncated: Bool, file: String, message: String, convert: String?)
    -> ImportError
  {
    let clean = cleanDecodings(sample, truncated: truncated).map(\.rawValue)
    var candidates = (clean + ["windows-1251", "windows-1250"]).prefix(4).map { "--encoding \($0)" }.joined(
      separator: " or ")
    if let convert { candidates += "; or convert the file to UTF-8 (iconv -f \(convert) -t UTF-8)" }
    return .undetectable(file: file, message: message, hint: "name its encoding: " + candidates)
  }

  /// The warning of an import whose encoding was guessed: which, and why.
  static func warning(_ sample: [UInt8], encoding: TextEncoding, reason: String) -> String {
    "line \(firstInvalidUTF8Line(sample[...])) is not UTF-8: the file is read as \(encoding.rawValue), \(reason) (use --encoding to override)"
  }

  /// The first text of the sample that reads implausibly as Windows-1252, with its line, or nil
  /// when the sample is plausible Western text.
  static func implausibleWindows1252(_ sample: [UInt8], as encoding: TextEncoding = .windows1252) -> (
    line: Int, text: String
  )? {
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
    let text = SingleByteTables.decode(Array(sample[first.start..<end]), from: encoding)
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

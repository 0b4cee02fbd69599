/// Checks that the text a line-based statement reader gets (OFX, QIF, MT940) is UTF-8, while
/// streaming, and refuses the file at the first byte that is not, naming its line, its byte in
/// the line and the byte itself (`\xE9`).
///
/// Why here and not in the readers: every reader turns bytes into text with
/// `String(decoding:as:)`, which turns a bad byte into U+FFFD without a word; a file in another
/// encoding than it says, or with one damaged byte, would be stored garbled with exit 0. One
/// check below all readers keeps them simple. With `--replace-invalid` the bytes are passed on
/// as they are (so the readers make the same U+FFFD as before) and each line is warned about.
final class UTF8CheckSource: ByteSource {
  let inner: any ByteSource
  let file: String
  /// The encoding the file is read in (the bytes here are its UTF-8): what the message names.
  let encoding: TextEncoding
  let replace: Bool
  /// The file was transcoded from a single-byte encoding: a column counts characters (the
  /// file's bytes), not the UTF-8 bytes they became.
  let countsCharacters: Bool
  /// 1-based line and the bytes of it seen so far (for the column and the value shown).
  private var line = 1
  private var column = 0
  private var lineBytes: [UInt8] = []
  private var afterCR = false
  /// An open multi-byte sequence: its lead byte, where it started, how many bytes it still
  /// needs, and the range its next byte must be in.
  private var lead: (byte: UInt8, line: Int, column: Int)?
  private var need = 0
  private var low: UInt8 = 0x80
  private var high: UInt8 = 0xBF
  /// Lines whose bad bytes were kept (`--replace-invalid`), waiting to be warned about.
  private(set) var replacedLines: [(line: Int, column: Int, byte: UInt8)] = []
  private var lastReplacedLine = 0
  /// How many lines had bytes kept in all.
  private(set) var replacedCount = 0

  /// Lines with kept bytes warned one by one; the rest are counted (as the CSV importer does).
  static let warningLimit = 100
  /// How much of a line the value in a message shows.
  static let contextBytes = 48

  init(_ inner: any ByteSource, file: String, encoding: TextEncoding, replace: Bool) {
    self.inner = inner
    self.file = file
    self.encoding = encoding
    self.replace = replace
    countsCharacters = encoding == .windows1252 || encoding == .latin1
  }

  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    let n = try inner.read(into: buffer, capacity: capacity)
    var i = 0
    while i < n {
      let b = buffer[i]
      if need == 0 && b < 0x80 {
        advance(b)
        i &+= 1
        continue
      }
      if need > 0 {
        if b >= low && b <= high {
          need &-= 1
          low = 0x80
          high = 0xBF
          advance(b, continuation: true)
          i &+= 1
          continue
        }
        // The sequence ends early: its lead byte is the bad one; this byte starts afresh.
        try invalid(following: Array(UnsafeBufferPointer(start: buffer + i, count: n &- i)))
        continue
      }
      switch b {
      case 0xC2...0xDF: open(b, need: 1, low: 0x80, high: 0xBF)
      case 0xE0: open(b, need: 2, low: 0xA0, high: 0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: open(b, need: 2, low: 0x80, high: 0xBF)
      case 0xED: open(b, need: 2, low: 0x80, high: 0x9F)
      case 0xF0: open(b, need: 3, low: 0x90, high: 0xBF)
      case 0xF1...0xF3: open(b, need: 3, low: 0x80, high: 0xBF)
      case 0xF4: open(b, need: 3, low: 0x80, high: 0x8F)
      default:
        lead = (b, line, column &+ 1)
        advance(b)
        try invalid(following: Array(UnsafeBufferPointer(start: buffer + (i &+ 1), count: n &- i &- 1)))
      }
      i &+= 1
    }
    if n == 0, need > 0 { try invalid() }
    return n
  }

  private func open(_ b: UInt8, need: Int, low: UInt8, high: UInt8) {
    lead = (b, line, column &+ 1)
    self.need = need
    self.low = low
    self.high = high
    advance(b)
  }

  /// Counts `b` into the line and column (LF, CRLF and a lone CR end a line, as `LineReader`
  /// reads them).
  private func advance(_ b: UInt8, continuation: Bool = false) {
    if b == 0x0A && afterCR {
      afterCR = false
      return
    }
    afterCR = b == 0x0D
    if b == 0x0A || b == 0x0D {
      line &+= 1
      column = 0
      lineBytes.removeAll(keepingCapacity: true)
      return
    }
    // A single-byte file's character is one byte of the file: its column counts characters.
    if !(continuation && countsCharacters) { column &+= 1 }
    // The last `contextBytes` at least, trimmed now and then so a long line costs no more.
    if lineBytes.count >= 2 &* UTF8CheckSource.contextBytes {
      lineBytes.removeFirst(UTF8CheckSource.contextBytes)
    }
    lineBytes.append(b)
  }

  /// The byte `lead` names is not UTF-8: refused, or noted for a warning.
  private func invalid(following: [UInt8] = []) throws(ImportError) {
    need = 0
    low = 0x80
    high = 0xBF
    guard let bad = lead else { return }
    lead = nil
    if replace {
      replacedCount &+= bad.line == lastReplacedLine ? 0 : 1
      if bad.line != lastReplacedLine && replacedLines.count < UTF8CheckSource.warningLimit {
        replacedLines.append((bad.line, bad.column, bad.byte))
      }
      lastReplacedLine = bad.line
      return
    }
    // The line's bytes before the bad one: those from it on (it and its sequence) are the last.
    let since = max(0, column &- bad.column &+ 1)
    let before = Array(lineBytes.dropLast(since).suffix(UTF8CheckSource.contextBytes))
    let after = following.prefix { $0 != 0x0A && $0 != 0x0D }.prefix(16)
    throw .row(
      ImportIssue(
        kind: .invalidText, file: file, line: bad.line, column: bad.column, columnName: nil,
        rawValue: UTF8CheckSource.escaped(before) + UTF8CheckSource.hexByte(bad.byte)
          + UTF8CheckSource.escaped(Array(after)),
        message: UTF8CheckSource.message(bad.byte, column: bad.column, encoding: encoding),
        hint: UTF8CheckSource.hint(encoding)))
  }

  /// The warnings for the lines kept with U+FFFD since the last call.
  func takeWarnings() -> [String] {
    guard !replacedLines.isEmpty else { return [] }
    defer { replacedLines.removeAll() }
    return replacedLines.map {
      "line \($0.line): \(UTF8CheckSource.message($0.byte, column: $0.column, encoding: encoding)) replaced with U+FFFD"
    }
  }

  /// The count of lines beyond the ones warned one by one, once the file is read.
  var moreWarning: String? {
    let more = replacedCount &- UTF8CheckSource.warningLimit
    guard more > 0 else { return nil }
    return "invalid text replaced with U+FFFD on \(more) more line\(more == 1 ? "" : "s")"
  }

  static func message(_ byte: UInt8, column: Int, encoding: TextEncoding) -> String {
    switch encoding {
    case .utf8: return "invalid UTF-8 at byte \(column) of the line (\(hexByte(byte)))"
    case .windows1252, .latin1:
      return "byte \(column) of the line (\(hexByte(byte))) is not a character in \(encoding.rawValue)"
    default: return "bytes not valid in \(encoding.rawValue) near byte \(column) of the line"
    }
  }

  static func hint(_ encoding: TextEncoding) -> String {
    let keep = "--replace-invalid keeps the text with U+FFFD (\u{FFFD}) for the bad bytes"
    if encoding == .utf8 {
      return "the file is read as UTF-8: if it is in another encoding, name it with --encoding (windows-1252, "
        + "iso-8859-15, ...); if a byte is damaged, \(keep)"
    }
    return "name the encoding the file is really in with --encoding, or \(keep)"
  }

  /// `\xE9`: a byte as a message shows it.
  static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
  }

  /// `bytes` as text, every byte that is not part of valid UTF-8 shown as `\xNN`.
  static func escaped(_ bytes: [UInt8]) -> String {
    var out = ""
    var start = 0
    while start < bytes.count {
      let rest = Array(bytes[start...])
      let bad = rest.withUnsafeBufferPointer { firstInvalidUTF8Offset($0) }
      guard let bad else {
        out += String(decoding: rest, as: UTF8.self)
        break
      }
      out += String(decoding: rest[..<bad], as: UTF8.self) + hexByte(rest[bad])
      start &+= bad &+ 1
    }
    return out
  }
}

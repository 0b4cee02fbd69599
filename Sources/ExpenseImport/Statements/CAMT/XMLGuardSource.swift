import Foundation

/// The bytes of a CAMT.053 file as `XMLScanner` reads them, checked on the way through, so the
/// scanner never sees a byte that has not been checked.
///
/// Why the checks: the scanner expands no entity but the five predefined ones and character
/// references, and reads no DTD; still, a document type declaration has no place in a bank's
/// CAMT.053 export, and a file holding one is refused outright, before any of its content is
/// read as XML: any `<!` followed by a letter (`<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`, …) stops the
/// reading. Comments (`<!--`) and CDATA sections (`<![CDATA[`) pass. The rule is the one the
/// importer kept when it read CAMT.053 with libxml2, whose entity substitution made it vital
/// (a 1 KB "billion laughs" file grows to gigabytes, and an external entity names a file or URL).
///
/// The scan skips NUL bytes, so it sees ASCII markup in UTF-16 and UTF-32 as in UTF-8; and the
/// encoding the XML declaration names must be one whose markup is ASCII bytes (UTF-8, UTF-16,
/// US-ASCII, ISO-8859-n, windows-125n): an encoding such as UTF-7 or EBCDIC could spell
/// `<!DOCTYPE` in bytes the scan cannot see, so such a file is refused as well.
///
/// The first read hands out the first `headBytes` (which `readHead` checked), the next ones
/// `chunkBytes` at a time; each read is scanned before it is handed out.
final class XMLGuardSource: ByteSource {
  let source: any ByteSource
  let file: String
  private var head: [UInt8] = []
  private var headOffset = 0
  private var sourceDone = false
  /// 0: outside markup; 1: after `<`; 2: after `<!`.
  private var scanState = 0
  /// The line feeds in the bytes scanned before the current read, for the line of a refusal
  /// (lines counted as the scanner counts them: line feeds).
  private var lineFeeds = 0

  /// Bytes read before the encoding is checked: enough for any XML declaration.
  static let headBytes = 1024
  /// The most one read takes from the source.
  static let chunkBytes = 128 << 10

  init(source: any ByteSource, file: String) {
    self.source = source
    self.file = file
  }

  /// Reads the first bytes (at most `headBytes`), checks the encoding they declare and returns
  /// them; `read` still hands them out.
  func readHead() throws(ImportError) -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: XMLGuardSource.headBytes)
    while head.count < XMLGuardSource.headBytes && !sourceDone {
      let n = try chunk.withUnsafeMutableBufferPointer { (p) throws(ImportError) -> Int in
        guard let base = p.baseAddress else { return 0 }
        return try source.read(into: base, capacity: XMLGuardSource.headBytes - head.count)
      }
      if n == 0 { sourceDone = true }
      head.append(contentsOf: chunk[0..<n])
    }
    try XMLGuardSource.checkEncoding(head, file: file)
    return head
  }

  /// Leaves out the first `count` bytes of the head (a byte order mark the decoder must not see);
  /// they are scanned all the same.
  func dropHead(_ count: Int) throws(ImportError) {
    let n = min(count, head.count &- headOffset)
    try head.withUnsafeBufferPointer { (all) throws(ImportError) in
      try scan(UnsafeBufferPointer(rebasing: all[headOffset..<(headOffset &+ n)]))
    }
    headOffset &+= n
  }

  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    guard capacity > 0 else { return 0 }
    let n: Int
    if headOffset < head.count {
      n = min(capacity, head.count &- headOffset)
      head.withUnsafeBufferPointer { all in
        if let base = all.baseAddress { buffer.update(from: base + headOffset, count: n) }
      }
      headOffset &+= n
    } else if sourceDone {
      return 0
    } else {
      n = try source.read(into: buffer, capacity: min(capacity, XMLGuardSource.chunkBytes))
      if n == 0 {
        sourceDone = true
        return 0
      }
    }
    try scan(UnsafeBufferPointer(start: buffer, count: n))
    return n
  }

  /// Refuses a head whose first markup character is not `<` in an ASCII-compatible or UTF-16/32
  /// form, or whose XML declaration names an encoding outside the list.
  static func checkEncoding(_ head: [UInt8], file: String) throws(ImportError) {
    // ASCII view: byte order marks and NUL bytes dropped.
    var bytes = head[...]
    for bom: [UInt8] in [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE]] where bytes.starts(with: bom) {
      bytes = bytes.dropFirst(bom.count)
      break
    }
    let ascii = bytes.filter { $0 != 0 }
    let first = ascii.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    guard first == UInt8(ascii: "<") else {
      throw .undetectable(
        file: file, message: "the file does not start with XML markup",
        hint: "a CAMT.053 file starts with <?xml or <Document; export the statement again")
    }
    let text = String(decoding: ascii, as: UTF8.self)
    guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return }
    let declaration = text[..<end.lowerBound]
    guard let key = declaration.range(of: "encoding") else { return }
    let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return }
    let name = rest.dropFirst().prefix { $0 != quote }.lowercased()
    if XMLGuardSource.isAllowedEncoding(name) { return }
    throw .undetectable(
      file: file, message: "the file declares the encoding \"\(name)\", which is not read",
      hint: "a CAMT.053 file is UTF-8 (or ISO-8859-1, windows-1252, UTF-16); export it again in UTF-8")
  }

  static func isAllowedEncoding(_ name: String) -> Bool {
    let plain = [
      "utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "us-ascii", "ascii", "latin1", "latin-1",
    ]
    if plain.contains(name) { return true }
    for prefix in ["iso-8859-", "iso8859-", "iso_8859-", "windows-125", "cp125"] where name.hasPrefix(prefix) {
      let number = name.dropFirst(prefix.count)
      return !number.isEmpty && number.count <= 2 && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }
    return false
  }

  /// Refuses `<!` followed by a letter anywhere in the bytes, NUL bytes skipped (state carried
  /// across reads). Outside markup only the next `<` matters, which `memchr` finds.
  private func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImportError) {
    guard let base = bytes.baseAddress else { return }
    let n = bytes.count
    var i = 0
    var state = scanState
    while i < n {
      if state == 0 {
        guard let found = memchr(base + i, 0x3C, n &- i) else { break }
        i = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) &+ 1
        state = 1
        continue
      }
      let byte = base[i]
      i &+= 1
      if byte == 0 { continue }
      if state == 1 {
        state = byte == UInt8(ascii: "!") ? 2 : (byte == UInt8(ascii: "<") ? 1 : 0)
      } else {
        if (byte | 0x20) &- UInt8(ascii: "a") < 26 {
          scanState = state
          let line = lineFeeds &+ XMLGuardSource.lineFeeds(UnsafeBufferPointer(start: base, count: i)) &+ 1
          throw XMLGuardSource.declarationRefusal(file: file, line: line)
        }
        state = byte == UInt8(ascii: "<") ? 1 : 0
      }
    }
    scanState = state
    lineFeeds &+= XMLGuardSource.lineFeeds(bytes)
  }

  /// The line feeds in `bytes`: a loop the compiler vectorizes, a few milliseconds for a 27 MB
  /// file (a hundredth of its import).
  static func lineFeeds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for b in bytes { count &+= b == 0x0A ? 1 : 0 }
    return count
  }

  static func declarationRefusal(file: String, line: Int) -> ImportError {
    .malformed(
      file: file, line: line, message: "the file declares a DTD or entities, which are not read (for safety)",
      hint:
        "a bank's CAMT.053 export has no <!DOCTYPE> or <!ENTITY>: export the statement again, or remove that declaration if you know the file"
    )
  }
}

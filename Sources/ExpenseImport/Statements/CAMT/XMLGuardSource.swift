import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The bytes of a `ByteSource` as the `InputStream` `XMLParser(stream:)` pulls from, checked on
/// the way through, so the XML parser streams (it asks for 128 KiB at a time and keeps only its
/// current element) and never sees a byte that has not been checked.
///
/// Why the checks: the parser under FoundationXML (libxml2) runs with entity substitution on
/// and in recovery mode, so a document type declaration would let a file expand entities (a
/// 1 KB "billion laughs" file grows to gigabytes) or name files and URLs. A bank's CAMT.053
/// export never has one, so any `<!` followed by a letter (`<!DOCTYPE`, `<!ENTITY`,
/// `<!ELEMENT`, …) stops the reading before the parser receives those bytes. Comments (`<!--`)
/// and CDATA sections (`<![CDATA[`) pass.
///
/// The scan skips NUL bytes, so it sees ASCII markup in UTF-16 and UTF-32 as in UTF-8; and the
/// encoding the XML declaration names must be one whose markup is ASCII bytes (UTF-8, UTF-16,
/// US-ASCII, ISO-8859-n, windows-125n): an encoding such as UTF-7 or EBCDIC could spell
/// `<!DOCTYPE` in bytes the scan cannot see, so such a file is refused as well.
final class XMLGuardStream: InputStream {
  let source: any ByteSource
  let file: String
  /// Why the reading stopped: the source's own error, or a refusal of the content.
  private(set) var failure: ImportError?
  private var status: Stream.Status = .notOpen
  private var checkedHead = false
  private var head: [UInt8] = []
  private var sourceDone = false
  /// 0: outside markup; 1: after `<`; 2: after `<!`.
  private var scanState = 0

  /// Bytes read before the encoding is checked: enough for any XML declaration.
  static let headBytes = 1024

  init(source: any ByteSource, file: String) {
    self.source = source
    self.file = file
    super.init(data: Data())
  }

  override func open() { status = .open }
  override func close() { status = .closed }
  override var streamStatus: Stream.Status { status }
  override var hasBytesAvailable: Bool { failure == nil && !(sourceDone && head.isEmpty) }
  override var streamError: (any Error)? { failure }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
    if failure != nil { return -1 }
    guard maxLength > 0 else { return 0 }
    do {
      if !checkedHead {
        try readHead()
        checkedHead = true
      }
      var n: Int
      if !head.isEmpty {
        n = min(maxLength, head.count)
        head.withUnsafeBufferPointer { all in
          if let base = all.baseAddress { buffer.update(from: base, count: n) }
        }
        head.removeFirst(n)
      } else if sourceDone {
        return 0
      } else {
        n = try source.read(into: buffer, capacity: maxLength)
        if n == 0 {
          sourceDone = true
          return 0
        }
      }
      try scan(UnsafeBufferPointer(start: buffer, count: n))
      return n
    } catch {
      failure = error
      status = .error
      return -1
    }
  }

  /// Reads the first bytes and checks the encoding they declare.
  private func readHead() throws(ImportError) {
    var chunk = [UInt8](repeating: 0, count: XMLGuardStream.headBytes)
    while head.count < XMLGuardStream.headBytes && !sourceDone {
      let n = try chunk.withUnsafeMutableBufferPointer { (p) throws(ImportError) -> Int in
        guard let base = p.baseAddress else { return 0 }
        return try source.read(into: base, capacity: XMLGuardStream.headBytes - head.count)
      }
      if n == 0 { sourceDone = true }
      head.append(contentsOf: chunk[0..<n])
    }
    try XMLGuardStream.checkEncoding(head, file: file)
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
    if XMLGuardStream.isAllowedEncoding(name) { return }
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

  /// Refuses `<!` followed by a letter anywhere in the bytes (state carried across reads).
  private func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImportError) {
    for byte in bytes where byte != 0 {
      switch scanState {
      case 1:
        scanState = byte == UInt8(ascii: "!") ? 2 : (byte == UInt8(ascii: "<") ? 1 : 0)
      case 2:
        let lower = byte | 0x20
        if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") {
          throw XMLGuardStream.declarationRefusal(file: file)
        }
        scanState = byte == UInt8(ascii: "<") ? 1 : 0
      default:
        if byte == UInt8(ascii: "<") { scanState = 1 }
      }
    }
  }

  static func declarationRefusal(file: String) -> ImportError {
    .undetectable(
      file: file, message: "the file declares a DTD or entities, which are not read (for safety)",
      hint:
        "a bank's CAMT.053 export has no <!DOCTYPE> or <!ENTITY>: export the statement again, or remove that declaration if you know the file"
    )
  }
}

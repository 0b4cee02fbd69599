/// How the bytes of a CAMT.053 file become the UTF-8 that `XMLScanner` reads, decided from its
/// first bytes as libxml2 decides (the parser the importer used before): a UTF-16 byte order
/// mark or the first characters in UTF-16 or UTF-32 settle it; otherwise the XML declaration's
/// `encoding` does (even after a UTF-8 byte order mark), and a file without one is UTF-8.
enum XMLEncoding {
  /// The source of UTF-8 bytes for a file whose checked first bytes are `head`, read through
  /// `guarded`. Throws the syntax error libxml2 gave for a declaration it could not follow.
  static func utf8(_ guarded: XMLGuardSource, head: [UInt8], file: String) throws(ImportError) -> any ByteSource {
    func starts(_ prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
    if starts([0xFF, 0xFE]) || starts([0x3C, 0x00, 0x3F, 0x00]) {
      return UTF16Source(guarded, bigEndian: false)
    }
    if starts([0xFE, 0xFF]) || starts([0x00, 0x3C, 0x00, 0x3F]) {
      return UTF16Source(guarded, bigEndian: true)
    }
    if starts([0x3C, 0x00, 0x00, 0x00]) || starts([0x00, 0x00, 0x00, 0x3C]) {
      let name = head[0] == 0x3C ? "UTF-32LE" : "UTF-32BE"
      guard let decoder = try? IconvSource(guarded, from: name) else {
        throw XMLSyntax.error(XMLSyntax.unsupportedEncoding, line: 1, file: file)
      }
      return decoder
    }
    // UTF-16 without a byte order mark or an XML declaration: `<` and a NUL byte.
    if starts([0x3C, 0x00]) { return UTF16Source(guarded, bigEndian: false) }
    if starts([0x00, 0x3C]) { return UTF16Source(guarded, bigEndian: true) }
    let bom = starts([0xEF, 0xBB, 0xBF])
    guard let declared = declaredEncoding(bom ? Array(head.dropFirst(3)) : head) else { return guarded }
    switch declared.lowercased() {
    case "utf-8", "utf8":
      return guarded
    case "utf-16", "utf16":
      throw XMLSyntax.error(XMLSyntax.invalidEncoding, line: 1, file: file)
    case "utf-16le", "utf-16be":
      // libxml2 switched to UTF-16 in the middle of the declaration and stumbled on its rest.
      throw XMLSyntax.error(XMLSyntax.spaceRequired, line: 1, file: file)
    default:
      if bom { try guarded.dropHead(3) }
      guard let decoder = try? IconvSource(guarded, from: declared) else {
        throw XMLSyntax.error(XMLSyntax.unsupportedEncoding, line: 1, file: file)
      }
      return decoder
    }
  }

  /// The `encoding` an XML declaration at the very start of `head` names, or nil.
  static func declaredEncoding(_ head: [UInt8]) -> String? {
    let start = Array("<?xml".utf8)
    guard head.starts(with: start), head.count > start.count, XMLChars.isBlank(head[start.count]) else { return nil }
    var end = start.count
    while end &+ 1 < head.count && !(head[end] == 0x3F && head[end &+ 1] == 0x3E) { end &+= 1 }
    let declaration = head[start.count..<end]
    let key = Array("encoding".utf8)
    guard var i = declaration.indices.first(where: { declaration[$0...].starts(with: key) }) else { return nil }
    i &+= key.count
    while i < end && (XMLChars.isBlank(head[i]) || head[i] == 0x3D) { i &+= 1 }
    guard i < end, head[i] == 0x22 || head[i] == 0x27 else { return nil }
    let quote = head[i]
    let nameStart = i &+ 1
    var nameEnd = nameStart
    while nameEnd < end && head[nameEnd] != quote { nameEnd &+= 1 }
    guard nameEnd > nameStart else { return nil }
    return String(decoding: head[nameStart..<nameEnd], as: UTF8.self)
  }
}

/// End tags, the XML declaration, comments, processing instructions and CDATA sections.
extension XMLScanner {
  /// An end tag, after its `</`: it must name the innermost open element (compared as libxml2
  /// compares, so the same tag gets the same error).
  mutating func endTag() throws(ImportError) {
    guard let top else { throw syntax(XMLSyntax.endTagWithoutStart) }
    let length = top.length
    var same = try ensure(length &+ 1)
    if same {
      let expected = names + top.start
      let found = buffer + position
      var k = 0
      while k < length && found[k] == expected[k] { k &+= 1 }
      same = k == length
    }
    if same && buffer[position &+ length] == 0x3E {
      position &+= length &+ 1
      popElement()
      return
    }
    let matched: Bool
    if same && XMLChars.isBlank(buffer[position &+ length]) {
      skip(length)
      matched = true
    } else {
      // libxml2 read the name again: as a qualified name when the element has a prefix.
      let found = try nameLength()
      if top.prefixLength > 0 { _ = try prefixLength(UnsafeBufferPointer(start: buffer + position, count: found)) }
      matched = false
      skip(found)
    }
    try skipBlanks()
    guard try peek() == 0x3E else { throw syntax(XMLSyntax.gtRequired) }
    skip(1)
    guard matched else { throw syntax(XMLSyntax.tagNameMismatch) }
    popElement()
  }

  /// A byte order mark, then the XML declaration if the document starts with one: version 1.x,
  /// then an encoding and `standalone`, checked in libxml2's order with its error numbers.
  mutating func declaration() throws(ImportError) {
    if try ensure(3), byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF { skip(3) }
    guard try looking(at: "<?xml"), let blank = try peek(5), XMLChars.isBlank(blank) else { return }
    skip(5)
    try skipBlanks()
    var version: [UInt8]?
    if try looking(at: "version") {
      skip(7)
      version = try quoted(allowEmpty: true) { (scanner) throws(ImportError) in try scanner.versionNumber() }
    }
    guard let version else { throw syntax(XMLSyntax.versionMissing) }
    // Any XML 1 version is read as 1.0, as libxml2 and expat read one they do not know: only a
    // version that is not XML 1 ("2.0") is refused.
    if !version.starts(with: Array("1.".utf8)) { throw syntax(XMLSyntax.unknownVersion) }
    if version.count < 3 { throw syntax(XMLSyntax.unsupportedVersion) }
    guard let next = try peek(), XMLChars.isBlank(next) else {
      if try looking(at: "?>") {
        skip(2)
        return
      }
      throw syntax(XMLSyntax.spaceRequired)
    }
    try skipBlanks()
    if try looking(at: "encoding") {
      skip(8)
      let name = try quoted(allowEmpty: false) { (scanner) throws(ImportError) in try scanner.encodingName() }
      // libxml2 wanted a blank here only after an encoding it had to convert from.
      let native = name.map { String(decoding: $0, as: UTF8.self).lowercased() }.map {
        ["utf-8", "utf8", "utf-16", "utf16"].contains($0)
      }
      if native != true, let after = try peek(), !XMLChars.isBlank(after) {
        if try looking(at: "?>") {
          skip(2)
          return
        }
        throw syntax(XMLSyntax.spaceRequired)
      }
    }
    try skipBlanks()
    if try looking(at: "standalone") {
      skip(10)
      _ = try quoted(allowEmpty: false) { (scanner) throws(ImportError) -> [UInt8]? in
        if try scanner.looking(at: "no") {
          scanner.skip(2)
        } else if try scanner.looking(at: "yes") {
          scanner.skip(3)
        } else {
          throw scanner.syntax(XMLSyntax.standaloneValue)
        }
        return []
      }
    }
    try skipBlanks()
    guard try looking(at: "?>") else { throw syntax(XMLSyntax.xmlDeclNotFinished) }
    skip(2)
  }

  /// `= "…"` of a pseudo-attribute of the declaration, its inside read by `inside`.
  mutating func quoted(
    allowEmpty: Bool, _ inside: (inout XMLScanner) throws(ImportError) -> [UInt8]?
  ) throws(ImportError) -> [UInt8]? {
    try skipBlanks()
    guard try peek() == 0x3D else { throw syntax(XMLSyntax.equalRequired) }
    skip(1)
    try skipBlanks()
    guard let quote = try peek(), quote == 0x22 || quote == 0x27 else { throw syntax(XMLSyntax.stringNotStarted) }
    skip(1)
    let value = try inside(&self)
    guard try peek() == quote else { throw syntax(XMLSyntax.stringNotClosed) }
    skip(1)
    return value
  }

  /// `[0-9] '.' [0-9]*`, or nil (nothing consumed past what matched).
  mutating func versionNumber() throws(ImportError) -> [UInt8]? {
    guard let first = try peek(), first &- 0x30 < 10, try peek(1) == 0x2E else { return nil }
    var version = [first, 0x2E]
    skip(2)
    while let b = try peek(), b &- 0x30 < 10 {
      version.append(b)
      skip(1)
    }
    return version
  }

  /// `[A-Za-z] [A-Za-z0-9._-]*`: an encoding's name (the decoder was chosen from it already).
  mutating func encodingName() throws(ImportError) -> [UInt8]? {
    guard let first = try peek(), (first | 0x20) &- 0x61 < 26 else { throw syntax(XMLSyntax.encodingNameStart) }
    var name: [UInt8] = []
    while let b = try peek(),
      (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == 0x2E || b == 0x5F || b == 0x2D
    {
      name.append(b)
      skip(1)
    }
    return name
  }

  /// A comment, after its `<!--`, up to `-->`; `--` inside is an error. As libxml2, a comment
  /// ending at the end of the file is "not finished", or a misplaced `--` when only ASCII came
  /// before (its faster path).
  mutating func comment() throws(ImportError) {
    var plain = true
    while true {
      guard let (scalar, length) = try character(), scalar != 0 else {
        throw syntax(XMLSyntax.commentNotFinished)
      }
      guard XMLChars.isChar(scalar) else { throw syntax(XMLSyntax.invalidChar) }
      if scalar >= 0x80 || (scalar < 0x20 && scalar != 0x09 && scalar != 0x0A && scalar != 0x0D) { plain = false }
      if scalar == 0x2D, try peek(1) == 0x2D {
        if try peek(2) == 0x3E {
          skip(3)
          return
        }
        if try peek(2) == nil && !plain { throw syntax(XMLSyntax.commentNotFinished) }
        throw syntax(XMLSyntax.hyphenInComment)
      }
      skip(length)
    }
  }

  /// A processing instruction, after its `<?`, up to `?>`. Its target may not be `xml` (the
  /// declaration belongs at the very start) nor another name starting with `xml` but the W3C's.
  mutating func processingInstruction() throws(ImportError) {
    let length = try nameLength()
    guard length > 0 else { throw syntax(XMLSyntax.piNotStarted) }
    var target: [UInt8] = []
    for k in 0..<length { target.append(byte(k)) }
    if length >= 3 && (target[0] | 0x20) == 0x78 && (target[1] | 0x20) == 0x6D && (target[2] | 0x20) == 0x6C {
      let w3c = [Array("xml-stylesheet".utf8), Array("xml-model".utf8)]
      if length == 3 || !w3c.contains(target) { throw syntax(XMLSyntax.reservedXMLName) }
    }
    if target.contains(0x3A) { throw syntax(XMLSyntax.colonInName) }
    skip(length)
    if try looking(at: "?>") {
      skip(2)
      return
    }
    guard try skipBlanks() else { throw syntax(XMLSyntax.spaceRequired) }
    while true {
      guard let (scalar, size) = try character(), XMLChars.isChar(scalar) else {
        throw syntax(XMLSyntax.piNotFinished)
      }
      if scalar == 0x3F, try peek(1) == 0x3E {
        skip(2)
        return
      }
      skip(size)
    }
  }

  /// A CDATA section at `<![CDATA[`: its content is text, taken as written (no references, and
  /// line ends as they are, as libxml2 passed them). Not finished by the end of the file: the
  /// document ends too early, on the line the section started.
  mutating func cdata() throws(ImportError) {
    let start = line
    skip(9)
    while true {
      guard try ensure(3) else { throw XMLSyntax.error(XMLSyntax.documentEnd, line: start, file: file) }
      if try looking(at: "]]>") {
        skip(3)
        trailingBytes = 0
        trailingLine = line
        return
      }
      guard let (scalar, length) = try character(), XMLChars.isChar(scalar) else {
        throw syntax(XMLSyntax.invalidChar)
      }
      for k in 0..<length { keep(byte(k)) }
      skip(length)
    }
  }
}

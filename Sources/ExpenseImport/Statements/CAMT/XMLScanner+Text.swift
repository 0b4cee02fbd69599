/// Character data and references.
extension XMLScanner {
  /// Character data up to the next `<` or the end of the file, into `text`: line ends as line
  /// feeds (CR LF and a lone CR alike, as XML wants), references decoded, every character checked.
  /// Plain ASCII is copied a buffer at a time; anything else goes a character at a time.
  mutating func characterData() throws(ImportError) {
    trailingBytes = 0
    trailingLine = line
    while true {
      let buffer = self.buffer
      let text = self.text
      let limit = maxTextBytes
      let end = count
      var i = position
      var kept = textCount
      var total = textTotal
      var line = self.line
      while i < end {
        let b = buffer[i]
        if b >= 0x20 && b < 0x80 {
          if b == 0x3C || b == 0x26 || b == 0x5D { break }  // < & ]
        } else if b == 0x0A {
          line &+= 1
        } else if b != 0x09 {
          break  // CR, another control character, or not ASCII
        }
        if kept < limit {
          text[kept] = b
          kept &+= 1
        }
        total &+= 1
        i &+= 1
      }
      trailingBytes &+= i &- position
      position = i
      self.line = line
      textCount = kept
      textTotal = total
      guard try ensure(1) else { return }
      if i == end && position == 0 { continue }  // refilled: go on with the plain loop
      switch byte() {
      case 0x3C:
        return
      case 0x26:
        // libxml2 left a last single `&` unread: the document ends too early.
        guard try ensure(2) else { throw syntax(XMLSyntax.documentEnd) }
        let scalar = try reference()
        keep(scalar: scalar)
        trailingBytes = 0
        trailingLine = self.line
      case 0x5D:
        if try looking(at: "]]>") { throw syntax(XMLSyntax.misplacedCDATAEnd) }
        keep(0x5D)
        skip(1)
        trailingBytes &+= 1
      case 0x0D:
        // CR LF is one line end (the LF is read next), a lone CR is a line feed.
        if try peek(1) != 0x0A { keep(0x0A) }
        position &+= 1
        trailingBytes &+= 1
      default:
        guard let (scalar, length) = try character(), XMLChars.isChar(scalar) else {
          throw syntax(XMLSyntax.invalidChar)
        }
        for k in 0..<length { keep(byte(k)) }
        position &+= length
        trailingBytes &+= length
      }
    }
  }

  /// Adds a character, as UTF-8, to the text.
  mutating func keep(scalar: UInt32) {
    var utf8: [UInt8] = []
    XMLScanner.encode(scalar) { utf8.append($0) }
    for b in utf8 { keep(b) }
  }

  /// `scalar`'s UTF-8 bytes, one by one.
  static func encode(_ scalar: UInt32, _ byte: (UInt8) -> Void) {
    switch scalar {
    case 0..<0x80:
      byte(UInt8(truncatingIfNeeded: scalar))
    case 0x80..<0x800:
      byte(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
      byte(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      byte(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
      byte(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
      byte(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    default:
      byte(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
      byte(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
      byte(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
      byte(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    }
  }

  /// The character a reference at `&` stands for: one of the five predefined entities or a
  /// character reference. Any other entity is undeclared (there is no DTD): an error, never
  /// looked up anywhere.
  mutating func reference() throws(ImportError) -> UInt32 {
    if try peek(1) == 0x23 { return try characterReference() }
    skip(1)
    let length = try nameLength()
    guard length > 0 else { throw syntax(XMLSyntax.nameRequired) }
    var name: [UInt8] = []
    for k in 0..<min(length, 5) { name.append(byte(k)) }
    skip(length)
    guard try peek() == 0x3B else { throw syntax(XMLSyntax.entityRefSemicolonMissing) }
    skip(1)
    if length <= 4 {
      switch name {
      case Array("amp".utf8): return 0x26
      case Array("lt".utf8): return 0x3C
      case Array("gt".utf8): return 0x3E
      case Array("quot".utf8): return 0x22
      case Array("apos".utf8): return 0x27
      default: break
      }
    }
    throw syntax(XMLSyntax.undeclaredEntity)
  }

  /// `&#NN;` or `&#xHH;`, read as libxml2 reads it (its quirk included: past the tenth digit of
  /// a hexadecimal reference, some places refuse a letter).
  mutating func characterReference() throws(ImportError) -> UInt32 {
    let hex = try peek(2) == 0x78
    skip(hex ? 3 : 2)
    var value: UInt32 = 0
    var counter = 0
    while let b = try peek(), b != 0x3B {
      if counter > 20 { counter = 0 } else { counter &+= 1 }
      let digit: UInt32
      if b &- 0x30 < 10 {
        digit = UInt32(b &- 0x30)
      } else if hex && (b | 0x20) &- 0x61 < 6 && counter < 20 {
        digit = UInt32((b | 0x20) &- 0x61) &+ 10
      } else {
        throw syntax(hex ? XMLSyntax.invalidHexCharRef : XMLSyntax.invalidDecCharRef)
      }
      value = min(value &* (hex ? 16 : 10) &+ digit, 0x110000)
      skip(1)
      counter &+= 1
    }
    if try peek() == 0x3B {
      skip(1)
    } else {
      throw syntax(hex ? XMLSyntax.invalidHexCharRef : XMLSyntax.invalidDecCharRef)
    }
    guard XMLChars.isChar(value) else { throw syntax(XMLSyntax.invalidChar) }
    return value
  }
}

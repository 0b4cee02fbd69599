/// Start and end tags, names, attributes and namespace declarations.
extension XMLScanner {
  /// The length of the name (XML's `Name`, colons allowed) at the current position, nothing
  /// consumed; 0 when no name starts here. A name stays in the buffer while it is measured.
  /// A NUL byte or bytes that are not UTF-8 where a name is read are an invalid character, as
  /// libxml2 said.
  mutating func nameLength() throws(ImportError) -> Int {
    var length = 0
    while true {
      guard try ensure(length &+ 1) else { return length }
      let b = buffer[position &+ length]
      if b == 0 { throw syntax(XMLSyntax.invalidChar) }
      if b < 0x80 {
        let ok = length == 0 ? XMLChars.isNameStart(UInt32(b)) : XMLChars.isASCIINameByte(b)
        guard ok else { return length }
        length &+= 1
      } else {
        _ = try ensure(length &+ 4)
        let available = count &- position &- length
        let buffer = self.buffer
        let at = position &+ length
        guard let (scalar, size) = XMLChars.decode(b, available: available, { buffer[at &+ 1 &+ $0] }) else {
          throw syntax(XMLSyntax.invalidChar)
        }
        let ok = length == 0 ? XMLChars.isNameStart(scalar) : XMLChars.isNameChar(scalar)
        guard ok else { return length }
        length &+= size
      }
      if length > XMLScanner.maxNameBytes { throw syntax(XMLSyntax.nameTooLong) }
    }
  }

  /// Where the prefix of the qualified name `bytes` ends (0: no prefix); `invalidQName` for a
  /// name with a colon first, last or twice, or a local part that cannot start a name.
  func prefixLength(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImportError) -> Int {
    guard let colon = bytes.firstIndex(of: 0x3A) else { return 0 }
    let rest = colon &+ 1
    guard colon > 0, rest < bytes.count, !bytes[rest...].contains(0x3A) else {
      throw syntax(XMLSyntax.invalidQName)
    }
    let first = bytes[rest]
    if first < 0x80 {
      guard XMLChars.isNameStart(UInt32(first)) else { throw syntax(XMLSyntax.invalidQName) }
    } else if let (scalar, _) = XMLChars.decode(
      first, available: bytes.count &- rest, { bytes[rest &+ 1 &+ $0] }),
      !XMLChars.isNameStart(scalar)
    {
      throw syntax(XMLSyntax.invalidQName)
    }
    return colon
  }

  /// The common start tag, in the buffer: `Name>`, or `Name attr="value">` with one attribute
  /// whose value needs no decoding (as `<Amt Ccy="EUR">`); ASCII names without a prefix. Read in
  /// one pass; nil, nothing consumed, for any other tag.
  mutating func plainStartTag() -> Event? {
    let buffer = self.buffer
    let start = position
    let end = min(count, start &+ XMLScanner.maxNameBytes)
    guard start < end, depth < XMLScanner.maxDepth else { return nil }
    let first = buffer[start]
    guard (first | 0x20) &- 0x61 < 26 || first == 0x5F else { return nil }
    var hash = XMLNameTable.seed
    var i = start
    while i < end {
      let b = buffer[i]
      if b == 0x3E || b == 0x20 { break }
      guard XMLChars.isASCIINameByte(b), b != 0x3A else { return nil }
      hash = (hash ^ UInt64(b)) &* XMLNameTable.prime
      i &+= 1
    }
    guard i < end else { return nil }
    let length = i &- start
    var attribute: (name: Int, nameLength: Int, value: Int, valueLength: Int)?
    if buffer[i] == 0x20 {
      guard let found = XMLScanner.plainAttribute(buffer, count: count, at: i &+ 1, limit: maxTextBytes) else {
        return nil
      }
      attribute = found
      i = found.value &+ found.valueLength &+ 1
      guard i < count, buffer[i] == 0x3E else { return nil }
    }
    let local = CAMTName(rawValue: table.lookup(buffer + start, length, hash: hash)) ?? .other
    push(buffer + start, length, prefixLength: 0, name: local, bindings: 0)
    currency = nil
    if let attribute {
      let valueBytes = UnsafeBufferPointer(start: buffer + attribute.value, count: attribute.valueLength)
      let names = UnsafeBufferPointer(start: buffer + attribute.name, count: attribute.nameLength)
      if names.elementsEqual("Ccy".utf8) { currency = String(decoding: valueBytes, as: UTF8.self) }
    }
    position = i &+ 1
    name = local
    eventLine = line
    return .start
  }

  /// `name="value"` at `at` in `buffer` (`count` bytes), an ASCII name without a prefix (not
  /// `xmlns`) and a value of at most `limit` bytes of printable ASCII without `<`, `&` or `"`:
  /// where the name and value are.
  static func plainAttribute(_ buffer: UnsafeMutablePointer<UInt8>, count: Int, at: Int, limit: Int)
    -> (name: Int, nameLength: Int, value: Int, valueLength: Int)?
  {
    var i = at
    guard i < count, (buffer[i] | 0x20) &- 0x61 < 26 || buffer[i] == 0x5F else { return nil }
    while i < count && buffer[i] != 0x3D {
      guard XMLChars.isASCIINameByte(buffer[i]), buffer[i] != 0x3A else { return nil }
      i &+= 1
    }
    let nameLength = i &- at
    guard nameLength <= XMLScanner.maxNameBytes, i &+ 1 < count, buffer[i &+ 1] == 0x22 else { return nil }
    if nameLength == 5 && UnsafeBufferPointer(start: buffer + at, count: 5).elementsEqual("xmlns".utf8) {
      return nil
    }
    let value = i &+ 2
    i = value
    while i < count && buffer[i] != 0x22 {
      let b = buffer[i]
      guard b >= 0x20 && b < 0x7F && b != 0x3C && b != 0x26 else { return nil }
      i &+= 1
    }
    guard i < count, i &- value <= limit else { return nil }
    return (at, nameLength, value, i &- value)
  }

  /// A start tag, after its `<`.
  mutating func startTag() throws(ImportError) -> Event {
    if let plain = plainStartTag() { return plain }
    let length = try nameLength()
    guard length > 0 else { throw syntax(XMLSyntax.nameRequired) }
    // The name is copied out: reading the attributes may move the buffer.
    var qualified = [UInt8](UnsafeBufferPointer(start: buffer + position, count: length))
    let prefix = try qualified.withUnsafeBufferPointer { (q) throws(ImportError) in try prefixLength(q) }
    let localStart = prefix > 0 ? prefix &+ 1 : 0
    var hash = XMLNameTable.seed
    for b in qualified[localStart...] { hash = (hash ^ UInt64(b)) &* XMLNameTable.prime }
    let number = qualified.withUnsafeBufferPointer { q in
      q.baseAddress.map { table.lookup($0 + localStart, length &- localStart, hash: hash) } ?? 0
    }
    let local = CAMTName(rawValue: number) ?? .other
    skip(length)
    let declared = try readAttributes()
    try checkAttributes()
    if prefix > 0 && lookup(Array(qualified[..<prefix])) == nil {
      throw syntax(XMLSyntax.undefinedNamespace)
    }
    guard depth < XMLScanner.maxDepth else { throw syntax(XMLSyntax.nestedTooDeep) }
    qualified.withUnsafeBufferPointer { q in
      if let base = q.baseAddress { push(base, length, prefixLength: prefix, name: local, bindings: declared) }
    }
    name = local
    eventLine = line
    if try looking(at: "/>") {
      skip(2)
      pendingEnd = true
    } else if try peek() == 0x3E {
      skip(1)
    } else {
      // libxml2 reported the start of the element, then the missing `>`.
      pendingError = XMLSyntax.gtRequired
    }
    return .start
  }

  /// Whether the `length` bytes at the current position are `text`.
  func isAt(_ text: StaticString, length: Int) -> Bool {
    guard length == text.utf8CodeUnitCount else { return false }
    let expected = text.utf8Start
    for k in 0..<length where buffer[position &+ k] != expected[k] { return false }
    return true
  }

  /// The attributes of a start tag, up to its `>` or `/>` (not consumed): namespace
  /// declarations are put in scope (their number is returned), the others kept for
  /// `checkAttributes`, `Ccy` in `currency`.
  mutating func readAttributes() throws(ImportError) -> Int {
    currency = nil
    attributes.removeAll(keepingCapacity: true)
    attributeNames.removeAll(keepingCapacity: true)
    var declared = 0
    try skipBlanks()
    while let b = try peek(), b != 0x3E, b >= 0x20 || XMLChars.isBlank(b) {
      if b == 0x2F, try peek(1) == 0x3E { break }
      let length = try nameLength()
      guard length > 0 else { throw syntax(XMLSyntax.nameRequired) }
      let prefix = try prefixLength(UnsafeBufferPointer(start: buffer + position, count: length))
      let isDefault = isAt("xmlns", length: length)
      let isPrefixed = prefix == 5 && isAt("xmlns", length: 5)
      let isCurrency = isAt("Ccy", length: length)
      let declaredPrefix =
        isPrefixed ? Array(UnsafeBufferPointer(start: buffer + position + 6, count: length &- 6)) : []
      if !isDefault && !isPrefixed {
        if attributes.count >= XMLScanner.maxAttributes {
          throw ImportError.undetectable(
            file: file, message: "a tag with more than \(XMLScanner.maxAttributes) attributes at line \(line)",
            hint: "this is not a bank statement")
        }
        attributes.append((attributeNames.count, length, prefix))
        attributeNames.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: length))
      }
      skip(length)
      try skipBlanks()
      guard try peek() == 0x3D else { throw syntax(XMLSyntax.attributeWithoutValue) }
      skip(1)
      try skipBlanks()
      let value = try attributeValue(keep: isDefault || isPrefixed || isCurrency)
      if isDefault || isPrefixed {
        if try declare(prefix: declaredPrefix, uri: value, inTag: declared) { declared &+= 1 }
      } else if isCurrency {
        currency = String(decoding: value, as: UTF8.self)
      }
      // After a value comes `>`, `/>` or a blank (the end of the file is no blank).
      guard let next = try peek() else { throw syntax(XMLSyntax.spaceRequired) }
      if next == 0x3E { break }
      if next == 0x2F, try peek(1) == 0x3E { break }
      guard try skipBlanks() else { throw syntax(XMLSyntax.spaceRequired) }
    }
    return declared
  }
}

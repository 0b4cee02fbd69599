/// Attribute values, namespace declarations and the checks at the end of a start tag.
extension XMLScanner {
  /// A quoted attribute value, after its `=` and blanks: references decoded, each blank a space
  /// (CR LF one space), as XML normalizes attribute values. Its bytes when `keep` (at most
  /// `maxTextBytes` of them), else nothing.
  mutating func attributeValue(keep: Bool) throws(ImportError) -> [UInt8] {
    guard let quote = try peek(), quote == 0x22 || quote == 0x27 else {
      throw syntax(XMLSyntax.attributeNotStarted)
    }
    skip(1)
    var value: [UInt8] = []
    let limit = keep ? maxTextBytes : 0
    while true {
      guard let b = try peek() else { throw syntax(XMLSyntax.attributeNotFinished) }
      if b == quote {
        skip(1)
        return value
      }
      switch b {
      case 0x3C:
        throw syntax(XMLSyntax.ltInAttribute)
      case 0x26:
        let scalar = try reference()
        XMLScanner.encode(scalar) { if value.count < limit { value.append($0) } }
      case 0x20, 0x09, 0x0A:
        if value.count < limit { value.append(0x20) }
        skip(1)
      case 0x0D:
        if try peek(1) != 0x0A, value.count < limit { value.append(0x20) }
        position &+= 1
      default:
        guard b >= 0x20, let (scalar, length) = try character(), XMLChars.isChar(scalar) else {
          throw syntax(XMLSyntax.invalidChar)
        }
        for k in 0..<length where value.count < limit { value.append(byte(k)) }
        position &+= length
      }
    }
  }

  /// A namespace declaration of the tag being read (`xmlns="…"` when `prefix` is empty), checked
  /// as libxml2 checked it, and put in scope: true when it was (the `xml` prefix's own is not).
  /// `inTag` is how many this tag declared before it.
  mutating func declare(prefix: [UInt8], uri: [UInt8], inTag: Int) throws(ImportError) -> Bool {
    let xmlURI = Array(XMLScanner.xmlNamespace.utf8)
    let xmlnsURI = Array("http://www.w3.org/2000/xmlns/".utf8)
    if prefix.isEmpty {
      if !uri.isEmpty {
        if let problem = XMLNamespaceURI.problem(uri) { throw syntax(problem) }
        if uri == xmlURI || uri == xmlnsURI { throw syntax(XMLSyntax.reservedNamespace) }
      }
    } else {
      if prefix == Array("xml".utf8) {
        if uri != xmlURI { throw syntax(XMLSyntax.reservedNamespace) }
        return false
      }
      if uri == xmlURI || prefix == Array("xmlns".utf8) || uri == xmlnsURI || uri.isEmpty {
        throw syntax(XMLSyntax.reservedNamespace)
      }
      // libxml2 warns of a relative URI here only in its pedantic mode.
      if XMLNamespaceURI.problem(uri) == XMLSyntax.invalidURI { throw syntax(XMLSyntax.invalidURI) }
    }
    for binding in bindings.suffix(inTag) where binding.prefix == prefix {
      throw syntax(XMLSyntax.attributeRedefined)
    }
    bindings.append(Binding(prefix: prefix, uri: String(decoding: uri, as: UTF8.self)))
    return true
  }

  /// After a start tag's last attribute: each prefix declared, no attribute twice (by its name,
  /// or by its namespace and local name).
  func checkAttributes() throws(ImportError) {
    if attributes.count == 1 && attributes[0].prefixLength == 0 { return }
    var uris: [String?] = []
    for (i, a) in attributes.enumerated() {
      let qualified = attributeNames[a.start..<(a.start &+ a.length)]
      var uri: String?
      if a.prefixLength > 0 {
        uri = lookup(Array(qualified.prefix(a.prefixLength)))
        if uri == nil { throw syntax(XMLSyntax.undefinedNamespace) }
      }
      uris.append(uri)
      let local = qualified.dropFirst(a.prefixLength > 0 ? a.prefixLength &+ 1 : 0)
      for j in 0..<i {
        let other = attributes[j]
        let otherQualified = attributeNames[other.start..<(other.start &+ other.length)]
        guard local.elementsEqual(otherQualified.dropFirst(other.prefixLength > 0 ? other.prefixLength &+ 1 : 0))
        else { continue }
        if qualified.prefix(a.prefixLength).elementsEqual(otherQualified.prefix(other.prefixLength)) {
          throw syntax(XMLSyntax.attributeRedefined)
        }
        if let uri, uris[j] == uri { throw syntax(XMLSyntax.namespacedAttributeRedefined) }
      }
    }
  }

}

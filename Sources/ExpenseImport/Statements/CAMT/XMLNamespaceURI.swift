/// libxml2's verdict on a namespace URI (an RFC 3986 URI reference, parsed as its `xmlParseURI`
/// parses): what the importer reported of a damaged `xmlns` when it read CAMT.053 with libxml2.
struct XMLNamespaceURI {
  let bytes: [UInt8]
  var at = 0

  /// nil for a URI with a scheme, `relativeURI` for a relative reference, `invalidURI` for
  /// anything else.
  static func problem(_ uri: [UInt8]) -> Int? {
    var absolute = XMLNamespaceURI(bytes: uri)
    if absolute.uri() { return nil }
    var relative = XMLNamespaceURI(bytes: uri)
    return relative.relativeReference() ? XMLSyntax.relativeURI : XMLSyntax.invalidURI
  }

  /// The byte `offset` after the current one; 0 past the end (as C strings end).
  func byte(_ offset: Int = 0) -> UInt8 { at &+ offset < bytes.count ? bytes[at &+ offset] : 0 }

  static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
  static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
  static func isHex(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20) &- 0x61 < 6 }
  func isUnreserved(_ b: UInt8) -> Bool {
    XMLNamespaceURI.isAlpha(b) || XMLNamespaceURI.isDigit(b) || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
  }
  func isSubDelim(_ b: UInt8) -> Bool { Array("!$&'()*+,;=".utf8).contains(b) }
  var isPercentEncoded: Bool { byte() == 0x25 && XMLNamespaceURI.isHex(byte(1)) && XMLNamespaceURI.isHex(byte(2)) }
  var isPChar: Bool {
    let b = byte()
    return isUnreserved(b) || isPercentEncoded || isSubDelim(b) || b == 0x3A || b == 0x40
  }
  mutating func next() { at &+= isPercentEncoded ? 3 : 1 }

  /// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, to the end.
  mutating func uri() -> Bool {
    guard XMLNamespaceURI.isAlpha(byte()) else { return false }
    while XMLNamespaceURI.isAlpha(byte()) || XMLNamespaceURI.isDigit(byte()) || byte() == 0x2B || byte() == 0x2D
      || byte() == 0x2E
    {
      at &+= 1
    }
    guard byte() == 0x3A else { return false }
    at &+= 1
    if byte() == 0x2F && byte(1) == 0x2F {
      at &+= 2
      guard authority(), pathAbEmpty() else { return false }
    } else if byte() == 0x2F {
      guard pathAbsolute() else { return false }
    } else if isPChar {
      guard segment(forbid: 0, empty: false), pathAbEmpty() else { return false }
    }
    return queryFragmentAndEnd()
  }

  /// `relative-part [ "?" query ] [ "#" fragment ]`, to the end.
  mutating func relativeReference() -> Bool {
    if byte() == 0x2F && byte(1) == 0x2F {
      at &+= 2
      guard authority(), pathAbEmpty() else { return false }
    } else if byte() == 0x2F {
      guard pathAbsolute() else { return false }
    } else if isPChar {
      guard segment(forbid: 0x3A, empty: false), pathAbEmpty() else { return false }
    }
    return queryFragmentAndEnd()
  }

  mutating func queryFragmentAndEnd() -> Bool {
    if byte() == 0x3F {
      at &+= 1
      while isPChar || byte() == 0x2F || byte() == 0x3F { next() }
    }
    if byte() == 0x23 {
      at &+= 1
      while isPChar || byte() == 0x2F || byte() == 0x3F || byte() == 0x5B || byte() == 0x5D { next() }
    }
    return at >= bytes.count
  }

  mutating func segment(forbid: UInt8, empty: Bool) -> Bool {
    guard isPChar else { return empty }
    while isPChar && byte() != forbid { next() }
    return true
  }

  mutating func pathAbEmpty() -> Bool {
    while byte() == 0x2F {
      at &+= 1
      guard segment(forbid: 0, empty: true) else { return false }
    }
    return true
  }

  mutating func pathAbsolute() -> Bool {
    guard byte() == 0x2F else { return false }
    at &+= 1
    if segment(forbid: 0, empty: false) { return pathAbEmpty() }
    return true
  }

  /// `[ userinfo "@" ] host [ ":" port ]`.
  mutating func authority() -> Bool {
    let start = at
    while isUnreserved(byte()) || isPercentEncoded || isSubDelim(byte()) || byte() == 0x3A { next() }
    if byte() == 0x40 { at &+= 1 } else { at = start }
    guard host() else { return false }
    if byte() == 0x3A {
      at &+= 1
      guard XMLNamespaceURI.isDigit(byte()) else { return false }
      while XMLNamespaceURI.isDigit(byte()) { at &+= 1 }
    }
    return true
  }

  mutating func host() -> Bool {
    if byte() == 0x5B {
      at &+= 1
      while byte() != 0x5D && byte() != 0 { at &+= 1 }
      guard byte() == 0x5D else { return false }
      at &+= 1
      return true
    }
    if XMLNamespaceURI.isDigit(byte()) {
      let start = at
      var ipv4 = decOctet()
      for _ in 0..<3 where ipv4 {
        ipv4 = byte() == 0x2E
        if ipv4 {
          at &+= 1
          ipv4 = decOctet()
        }
      }
      if ipv4 { return true }
      at = start
    }
    while isUnreserved(byte()) || isPercentEncoded || isSubDelim(byte()) { next() }
    return true
  }

  /// libxml2's `xmlParse3986DecOctet`, its quirk for 250–255 included.
  mutating func decOctet() -> Bool {
    let (c0, c1, c2) = (byte(), byte(1), byte(2))
    let isDigit = XMLNamespaceURI.isDigit
    guard isDigit(c0) else { return false }
    if !isDigit(c1) {
      at &+= 1
    } else if c0 != 0x30 && isDigit(c1) && !isDigit(c2) {
      at &+= 2
    } else if c0 == 0x31 && isDigit(c1) && isDigit(c2) {
      at &+= 3
    } else if c0 == 0x32 && c1 >= 0x30 && c1 <= 0x34 && isDigit(c2) {
      at &+= 3
    } else if c0 == 0x32 && c1 == 0x35 && c2 >= 0x30 && c1 <= 0x35 {
      at &+= 3
    } else {
      return false
    }
    return true
  }
}

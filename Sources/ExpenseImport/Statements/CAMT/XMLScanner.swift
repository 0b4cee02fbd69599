/// Reads an XML document (UTF-8, from `XMLEncoding`) as a stream of start and end tags, with the
/// text between them: what `CAMT053Reader` needs of a CAMT.053 file, and no more.
///
/// Why a scanner of its own rather than FoundationXML's `XMLParser`: on Linux that parser hands
/// every element name, namespace, attribute and run of text to its delegate as a new `String`
/// (and a dictionary), and at 100,000 entries (2.8 million tags, 27 MB) that alone took twice as
/// long as importing the same transactions as CSV (0.62 s against 0.30 s), before any work of the
/// reader. This scanner keeps names as numbers (`CAMTName`) and text as bytes until a value is kept.
///
/// What it checks, as libxml2 (FoundationXML's parser) did, with the same error numbers and lines
/// (`XMLSyntax`): the XML declaration, matched tags and one root element, names, attributes
/// (quoted, no `<`, no duplicates), namespace prefixes declared, characters XML allows, valid
/// UTF-8, references, comments, processing instructions and CDATA sections. What it never does:
/// read a DTD (`XMLGuardSource` refuses any `<!DOCTYPE` or `<!ENTITY` before the scanner sees
/// it), expand an entity other than `&amp; &lt; &gt; &quot; &apos;`, or resolve anything outside
/// the file. Memory is bounded whatever the file: a 128 KiB buffer, at most `maxTextBytes` of text
/// kept per element (more is counted, not kept), names of at most `maxNameBytes`, at most
/// `maxAttributes` attributes a tag and `maxDepth` open elements.
///
/// Noncopyable: it owns its buffers and frees them once.
struct XMLScanner: ~Copyable {
  enum Event: Equatable {
    /// A start tag: `name`, `eventLine`, `currency` and `namespaceURI()` describe it.
    case start
    /// An end tag (or the end of an empty element `<X/>`): `name` is the element's; the text
    /// before it is `textBytes()`.
    case end
    /// The end of a well-formed document.
    case endOfDocument
  }

  enum Phase {
    /// Nothing read yet: a byte order mark and the XML declaration may come.
    case start
    /// Before the root element: blanks, comments, processing instructions.
    case prolog
    /// Inside the root element.
    case content
    /// After the root element: blanks, comments, processing instructions, then the end.
    case epilog
    case done
  }

  /// An open element: where its qualified name starts in `names` and its length, where its
  /// prefix ends (0: none), its local name's number, and how many namespace declarations it made.
  struct Element {
    var start: Int
    var length: Int
    var prefixLength: Int
    var name: CAMTName
    var bindings: Int
  }

  /// A namespace declaration in scope: its prefix (empty for the default namespace) and URI.
  struct Binding {
    var prefix: [UInt8]
    var uri: String
  }

  static let bufferBytes = 128 << 10
  static let maxNameBytes = 1024
  static let maxAttributes = 256
  /// How deep elements may nest: a CAMT.053 statement nests about twelve deep, so 64 leaves room
  /// for any bank's and keeps the names of the open elements to 64 KiB.
  static let maxDepth = 64
  static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

  let source: any ByteSource
  let file: String
  let table = CAMTName.table
  let buffer: UnsafeMutablePointer<UInt8>
  var position = 0
  var count = 0
  var atEnd = false
  var phase = Phase.start
  /// The line of the next byte (1-based; line feeds count, as in libxml2).
  var line = 1

  /// The text since the last tag: at most `maxTextBytes` of it kept, `textTotal` bytes in all.
  let maxTextBytes: Int
  let text: UnsafeMutablePointer<UInt8>
  var textCount = 0
  var textTotal = 0
  /// The line the current run of text started on, and how many bytes it has since the last
  /// markup or reference (for the line of an error at the end of the file, as libxml2 gave it).
  var trailingLine = 1
  var trailingBytes = 0

  /// The qualified names of the open elements, one after another (`nameTop` bytes), and the
  /// open elements (`depth` of them, outermost first).
  let names: UnsafeMutablePointer<UInt8>
  var nameTop = 0
  let elements: UnsafeMutablePointer<Element>
  var depth = 0
  /// The namespace declarations in scope, innermost last.
  var bindings: [Binding] = []
  /// The element of the last event, the line of its start tag's end, and its `Ccy` attribute.
  var name = CAMTName.other
  var eventLine = 1
  var currency: String?
  /// An empty element's end, due after its start.
  var pendingEnd = false
  /// An error due after the start event of a tag that does not end with `>`.
  var pendingError: Int?
  /// The attributes of the tag being read (not namespace declarations): their qualified names
  /// one after another, and for each where its name starts, its length and where its prefix ends.
  var attributeNames: [UInt8] = []
  var attributes: [(start: Int, length: Int, prefixLength: Int)] = []

  init(_ source: any ByteSource, file: String, maxTextBytes: Int = ImportLimits.maxFieldBytes) {
    self.source = source
    self.file = file
    self.maxTextBytes = maxTextBytes
    buffer = .allocate(capacity: XMLScanner.bufferBytes)
    text = .allocate(capacity: max(maxTextBytes, 1))
    names = .allocate(capacity: XMLScanner.maxDepth * XMLScanner.maxNameBytes)
    elements = .allocate(capacity: XMLScanner.maxDepth)
  }

  deinit {
    buffer.deallocate()
    text.deallocate()
    names.deallocate()
    elements.deallocate()
  }

  func syntax(_ code: Int) -> ImportError { XMLSyntax.error(code, line: line, file: file) }

  // MARK: Bytes

  /// Makes `n` bytes available from `position` unless the file ends first; false then.
  @inline(__always)
  mutating func ensure(_ n: Int) throws(ImportError) -> Bool {
    if count &- position >= n { return true }
    return try fill(n)
  }

  /// Moves what is left to the front of the buffer and reads until `n` bytes are there.
  mutating func fill(_ n: Int) throws(ImportError) -> Bool {
    let rest = count &- position
    if position > 0 {
      if rest > 0 { buffer.update(from: buffer + position, count: rest) }
      position = 0
      count = rest
    }
    while count < n && !atEnd {
      let got = try source.read(into: buffer + count, capacity: XMLScanner.bufferBytes &- count)
      if got <= 0 {
        atEnd = true
      } else {
        count &+= got
      }
    }
    return count &- position >= n
  }

  /// The byte `offset` after the next one (which must be available).
  @inline(__always)
  func byte(_ offset: Int = 0) -> UInt8 { buffer[position &+ offset] }

  /// The next byte, or nil at the end of the file.
  @inline(__always)
  mutating func peek(_ offset: Int = 0) throws(ImportError) -> UInt8? {
    guard try ensure(offset &+ 1) else { return nil }
    return buffer[position &+ offset]
  }

  /// Consumes `n` available bytes, counting line feeds.
  @inline(__always)
  mutating func skip(_ n: Int) {
    for i in 0..<n where buffer[position &+ i] == 0x0A { line &+= 1 }
    position &+= n
  }

  /// Whether the next bytes are `bytes` (nothing consumed).
  mutating func looking(at bytes: StaticString) throws(ImportError) -> Bool {
    let n = bytes.utf8CodeUnitCount
    guard try ensure(n) else { return false }
    let expected = bytes.utf8Start
    for i in 0..<n where buffer[position &+ i] != expected[i] { return false }
    return true
  }

  /// Skips blanks; true when there was one.
  @discardableResult
  mutating func skipBlanks() throws(ImportError) -> Bool {
    var any = false
    while let b = try peek(), XMLChars.isBlank(b) {
      skip(1)
      any = true
    }
    return any
  }

  /// The next character: its scalar and length in bytes; nil at the end of the file. Throws
  /// `invalidChar` for bytes that are not UTF-8.
  mutating func character() throws(ImportError) -> (UInt32, Int)? {
    guard let lead = try peek() else { return nil }
    if lead < 0x80 { return (UInt32(lead), 1) }
    _ = try ensure(4)
    let available = count &- position
    let buffer = self.buffer
    let at = position
    guard let decoded = XMLChars.decode(lead, available: available, { buffer[at &+ 1 &+ $0] }) else {
      throw syntax(XMLSyntax.invalidChar)
    }
    return decoded
  }

  // MARK: Text

  /// Adds a byte to the text.
  @inline(__always)
  mutating func keep(_ b: UInt8) {
    if textCount < maxTextBytes {
      text[textCount] = b
      textCount &+= 1
    }
    textTotal &+= 1
  }

  /// The text before the last end tag, as written (references decoded).
  func textBytes() -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: text, count: textCount) }

  /// Whether the text was longer than `maxTextBytes`.
  var textTooLong: Bool { textTotal > maxTextBytes }

  // MARK: Events

  /// The next start or end tag, or the end of the document.
  mutating func next() throws(ImportError) -> Event {
    if let code = pendingError { throw syntax(code) }
    if pendingEnd {
      pendingEnd = false
      popElement()
      return .end
    }
    textCount = 0
    textTotal = 0
    switch phase {
    case .start:
      try declaration()
      phase = .prolog
      return try prolog()
    case .prolog:
      return try prolog()
    case .content:
      return try content()
    case .epilog:
      return try epilog()
    case .done:
      return .endOfDocument
    }
  }

  /// Text, comments, processing instructions and CDATA sections up to the next tag.
  mutating func content() throws(ImportError) -> Event {
    while true {
      if position < count && buffer[position] == 0x3C {
        // No text before the tag (the common case: tags follow one another).
        trailingBytes = 0
        trailingLine = line
      } else {
        try characterData()
      }
      guard try ensure(2) else {
        // The end of the file inside the root element. libxml2 left a last single byte of
        // text unread, and reported the line it was on.
        let lone = count == position && trailingBytes == 1
        throw XMLSyntax.error(XMLSyntax.documentEnd, line: lone ? trailingLine : line, file: file)
      }
      switch byte(1) {
      case 0x2F:  // </
        skip(2)
        try endTag()
        return .end
      case 0x3F:  // <?
        skip(2)
        try processingInstruction()
      case 0x21:  // <!
        if try looking(at: "<!--") {
          skip(4)
          try comment()
        } else if try looking(at: "<![CDATA[") {
          try cdata()
        } else if count &- position < 9 {
          throw syntax(XMLSyntax.documentEnd)
        } else {
          throw syntax(XMLSyntax.unknownMarkup)
        }
      default:
        skip(1)
        return try startTag()
      }
    }
  }

  /// Blanks, comments and processing instructions before the root element, then its start tag.
  mutating func prolog() throws(ImportError) -> Event {
    while true {
      try skipBlanks()
      guard let b = try peek() else { throw syntax(XMLSyntax.documentEnd) }
      guard b == 0x3C else { throw syntax(XMLSyntax.documentEmpty) }
      if try looking(at: "<?") {
        skip(2)
        try processingInstruction()
      } else if try looking(at: "<!--") {
        skip(4)
        try comment()
      } else {
        // libxml2 waited for a second byte after a last `<`.
        guard try ensure(2) else { throw syntax(XMLSyntax.documentEnd) }
        skip(1)
        phase = .content
        return try startTag()
      }
    }
  }

  /// Blanks, comments and processing instructions after the root element, then the end.
  mutating func epilog() throws(ImportError) -> Event {
    while true {
      try skipBlanks()
      guard try peek() != nil else {
        phase = .done
        return .endOfDocument
      }
      if try looking(at: "<?") {
        skip(2)
        try processingInstruction()
      } else if try looking(at: "<!--") {
        skip(4)
        try comment()
      } else {
        throw syntax(XMLSyntax.documentEnd)
      }
    }
  }

  /// Opens an element (there is room: the callers checked `depth` and the name's length).
  mutating func push(
    _ qualified: UnsafePointer<UInt8>, _ length: Int, prefixLength: Int, name: CAMTName, bindings: Int
  ) {
    (names + nameTop).update(from: qualified, count: length)
    (elements + depth).initialize(
      to: Element(start: nameTop, length: length, prefixLength: prefixLength, name: name, bindings: bindings))
    nameTop &+= length
    depth &+= 1
  }

  /// The end tag just read (or an empty element's end) closes the innermost element.
  mutating func popElement() {
    guard depth > 0 else { return }
    depth &-= 1
    let top = elements[depth]
    name = top.name
    nameTop &-= top.length
    if top.bindings > 0 { bindings.removeLast(top.bindings) }
    if depth == 0 { phase = .epilog }
  }

  /// The innermost open element.
  var top: Element? { depth > 0 ? elements[depth &- 1] : nil }

  /// The namespace URI of the element of the last start event ("" when it has none).
  func namespaceURI() -> String {
    guard let top else { return "" }
    let prefix = Array(UnsafeBufferPointer(start: names + top.start, count: top.prefixLength))
    return lookup(prefix) ?? ""
  }

  /// The URI `prefix` is bound to (the default namespace for an empty prefix), or nil.
  func lookup(_ prefix: [UInt8]) -> String? {
    if prefix == Array("xml".utf8) { return XMLScanner.xmlNamespace }
    for binding in bindings.reversed() where binding.prefix == prefix {
      return binding.uri.isEmpty ? nil : binding.uri
    }
    return nil
  }

  /// The local name of the innermost open element, if any.
  func innermostName() -> String? {
    guard let top else { return nil }
    let skip = top.prefixLength > 0 ? top.prefixLength &+ 1 : 0
    return String(
      decoding: UnsafeBufferPointer(start: names + top.start + skip, count: top.length &- skip), as: UTF8.self)
  }
}

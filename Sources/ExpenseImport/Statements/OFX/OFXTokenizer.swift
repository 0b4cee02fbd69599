/// Splits the bytes of an OFX file (1.x SGML or 2.x XML) into tags and text, reading the source
/// in chunks and counting lines, so that a file of any size (or one without a single line end)
/// is read with a fixed buffer plus the current value.
///
/// Why a tokenizer of its own rather than an XML parser: OFX 1.x leaves leaf tags unclosed
/// (`<TRNAMT>-12.50<FITID>…`), which no XML parser accepts, and the same reader then serves
/// 2.x. Nothing is resolved but the five predefined entities and numeric character references;
/// a markup declaration (`<!DOCTYPE`, `<!ENTITY` …) or a reference to any other entity (`&name;`)
/// is refused naming its line, so a file can neither make the reader fetch or expand anything
/// nor have a value stored as something other than what it says.
///
/// It works on bytes: a tag's name becomes an `OFXName` (a number for the names the reader knows)
/// without a `String`, and a text's bytes are kept in one buffer and decoded only when the
/// reader keeps the value (`text()`). Noncopyable: it owns its buffers and frees them once.
struct OFXTokenizer: ~Copyable {
  enum Token: Equatable {
    /// `<NAME>` (or `<NAME/>`, `selfClosing`), the name upper-cased.
    case open(OFXName, selfClosing: Bool)
    /// `</NAME>`, the name upper-cased.
    case close(OFXName)
    /// The text between two tags, trimmed, never empty: its bytes are in `value`, and `text()`
    /// decodes them (references too, unless it was a CDATA section).
    case text
    /// The inside of `<?…?>` (`xml version="1.0"`, `OFX OFXHEADER="200" …`), at most 4 KiB.
    case instruction(String)
  }

  /// The longest tag name: OFX names are short (`CREDITCARDMSGSRSV1` is the longest of the
  /// specification), so a longer one is a damaged file, never a name to keep in memory.
  static let maxNameBytes = 256
  static let maxInstructionBytes = 4 << 10
  static let bufferBytes = 64 << 10

  let source: any ByteSource
  let file: String
  let maxValueBytes: Int
  let names = OFXNameTable.shared
  let buffer: UnsafeMutablePointer<UInt8>
  var position = 0
  var count = 0
  var atEnd = false
  var checkedBOM = false
  var previousWasCR = false
  /// The line of the byte read last (1-based; a CR, an LF or a CRLF ends a line).
  private(set) var line = 1
  /// The line the token returned last starts on (for text, its first non-blank byte).
  private(set) var tokenLine = 1
  /// The name of the tag opened last, for the message about a value that is too long.
  var lastOpened: OFXName?
  /// The bytes of the text token returned last (at most `maxValueBytes`), trailing blanks
  /// removed; `valueIsLiteral` for a CDATA section, whose `&` is not a reference.
  let value: UnsafeMutablePointer<UInt8>
  private(set) var valueCount = 0
  private(set) var valueIsLiteral = false
  /// The name being read (upper-cased).
  let name: UnsafeMutablePointer<UInt8>

  init(_ source: any ByteSource, file: String, maxValueBytes: Int = ImportLimits.maxFieldBytes) {
    self.source = source
    self.file = file
    self.maxValueBytes = maxValueBytes
    buffer = .allocate(capacity: OFXTokenizer.bufferBytes)
    value = .allocate(capacity: max(maxValueBytes, 1))
    name = .allocate(capacity: OFXTokenizer.maxNameBytes)
  }

  deinit {
    buffer.deallocate()
    value.deallocate()
    name.deallocate()
  }

  /// The text token's value as the reader keeps it: references decoded (not in CDATA).
  func text() -> String {
    let bytes = UnsafeBufferPointer(start: value, count: valueCount)
    if valueIsLiteral { return String(decoding: bytes, as: UTF8.self) }
    return OFXTokenizer.decodeReferences(bytes)
  }

  // MARK: Bytes

  /// Fills the buffer; false at the end of the source. The first fill strips a UTF-8 byte
  /// order mark (the caller has transcoded the file to UTF-8 already).
  mutating func refill() throws(ImportError) -> Bool {
    while true {
      if atEnd { return false }
      try fill()
      if position < count { return true }
    }
  }

  /// One refill of the buffer (it may hold only the byte order mark, then nothing is left).
  mutating func fill() throws(ImportError) {
    position = 0
    count = 0
    repeat {
      let free = OFXTokenizer.bufferBytes &- count
      let n = try source.read(into: buffer + count, capacity: free)
      if n <= 0 {
        atEnd = true
        break
      }
      count &+= min(n, free)
    } while !checkedBOM && count < 3
    if !checkedBOM {
      checkedBOM = true
      if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { position = 3 }
    }
  }

  /// The next byte without consuming it, nil at the end.
  @inline(__always)
  mutating func peek() throws(ImportError) -> UInt8? {
    if position >= count { guard try refill() else { return nil } }
    return buffer[position]
  }

  /// Counts `b` into `line`: LF, CR and CR LF each end one line (`afterCR`: the byte before
  /// was a CR, so an LF now ends no new line).
  @inline(__always)
  static func count(_ b: UInt8, line: inout Int, afterCR: inout Bool) {
    if b == 0x0A {
      if !afterCR { line &+= 1 }
      afterCR = false
    } else if b == 0x0D {
      line &+= 1
      afterCR = true
    } else {
      afterCR = false
    }
  }

  /// Consumes and returns the next byte, counting line ends; nil at the end.
  @inline(__always)
  mutating func take() throws(ImportError) -> UInt8? {
    if position >= count { guard try refill() else { return nil } }
    let b = buffer[position]
    position &+= 1
    OFXTokenizer.count(b, line: &line, afterCR: &previousWasCR)
    return b
  }

  @inline(__always)
  static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }

  // MARK: Tokens

  /// The next token, or nil at the end of the file.
  mutating func next() throws(ImportError) -> Token? {
    while let b = try peek() {
      if b == 0x3C, try continuation() == nil {  // < of a tag (a comment or CDATA is text's)
        let start = line
        _ = try take()
        if let token = try tag(startLine: start) { return token }
      } else if try readText() {
        return .text
      }
    }
    return nil
  }

  /// What a text is read into: where it stands while its pieces (text, comments, CDATA
  /// sections) are read one after another.
  struct TextRun {
    var kept = 0
    var total = 0
    /// `total` without trailing blanks.
    var significant = 0
    var started = false
    var firstLine = 1
    /// Whether a CDATA section or a comment is part of it: then its plain pieces are decoded as
    /// each ends (`settle`), and the value is literal (its `&` no longer a reference).
    var literal = false
    /// Where the piece of plain text being read starts in `value`, and its line.
    var rawFrom = 0
    var rawLine = 1
  }

  /// What continues a text at a `<`.
  enum Continuation {
    case comment
    case cdata
  }

  /// Text up to the next tag (or the end) into `value`: false when it is only blanks. Comments
  /// and CDATA sections are part of it, as XML's character data runs across them:
  /// `<NAME>AT<!-- -->&amp;T <![CDATA[<Inc>]]></NAME>` is `AT&T <Inc>` (a value read up to its
  /// first CDATA section or comment lost the rest). A processing instruction still ends it: a
  /// `<?OFX …?>` header after blanks must reach the reader, and no bank writes one in a value.
  mutating func readText() throws(ImportError) -> Bool {
    valueIsLiteral = false
    var run = TextRun(firstLine: tokenLine)
    while true {
      try scanText(&run)
      // `scanText` stops at a `<` (unread) or at the end of the file.
      guard position < count, let next = try continuation() else { break }
      let start = line
      // The text so far is decoded now: the next piece does not follow it in the file.
      try settle(&run)
      run.literal = true
      previousWasCR = false
      switch next {
      case .comment:
        position &+= 4
        _ = try skip(to: [0x2D, 0x2D, 0x3E], startLine: start)
      case .cdata:
        position &+= 9
        try readCDATA(&run, startLine: start)
      }
      run.rawFrom = run.kept
      run.rawLine = line
    }
    tokenLine = run.firstLine
    valueCount = run.kept
    guard run.started else { return false }
    if run.significant > maxValueBytes { throw tooLong(total: run.significant) }
    while valueCount > 0 && OFXTokenizer.isBlank(value[valueCount &- 1]) { valueCount &-= 1 }
    if run.literal {
      run.kept = valueCount
      run.rawFrom = min(run.rawFrom, valueCount)
      try settle(&run)
      valueCount = run.kept
      valueIsLiteral = true
    } else {
      try checkReferences(from: 0, to: valueCount, line: tokenLine)
    }
    return true
  }

  /// Plain text into `value` up to the next `<` (left unread) or the end: the bytes are scanned
  /// a buffer at a time, with the line count in locals.
  mutating func scanText(_ run: inout TextRun) throws(ImportError) {
    let buffer = self.buffer
    let value = self.value
    var kept = run.kept
    var total = run.total
    var significant = run.significant
    var started = run.started
    var line = self.line
    var cr = previousWasCR
    var firstLine = run.firstLine
    let limit = maxValueBytes
    scan: while true {
      if position >= count {
        self.line = line
        previousWasCR = cr
        guard try refill() else { break scan }
      }
      var i = position
      let end = count
      while i < end {
        let b = buffer[i]
        if b == 0x3C {
          position = i
          break scan
        }
        i &+= 1
        if b == 0x0A {
          if !cr { line &+= 1 }
          cr = false
        } else if b == 0x0D {
          line &+= 1
          cr = true
        } else {
          cr = false
        }
        let blank = OFXTokenizer.isBlank(b)
        if !started {
          if blank { continue }
          started = true
          firstLine = line
        }
        total &+= 1
        if !blank { significant = total }
        if total <= limit {
          value[kept] = b
          kept &+= 1
        }
      }
      position = end
    }
    self.line = line
    previousWasCR = cr
    run.kept = kept
    run.total = total
    run.significant = significant
    run.started = started
    run.firstLine = firstLine
  }

  /// What starts at the `<` at `position` when it continues a text: a comment (`<!--`) or a
  /// CDATA section (`<![CDATA[`); nil for a tag or anything else. Nothing is consumed.
  mutating func continuation() throws(ImportError) -> Continuation? {
    guard try ensure(4), buffer[position &+ 1] == 0x21 else { return nil }  // <!
    if buffer[position &+ 2] == 0x2D && buffer[position &+ 3] == 0x2D { return .comment }
    guard try ensure(9) else { return nil }
    for (offset, b) in "[CDATA[".utf8.enumerated() where buffer[position &+ 2 &+ offset] != b { return nil }
    return .cdata
  }

  /// Whether `n` bytes from `position` are in the buffer, reading more behind the unread ones
  /// when they are not (false only at the end of the file).
  mutating func ensure(_ n: Int) throws(ImportError) -> Bool {
    if count &- position >= n { return true }
    if atEnd { return false }
    let rest = count &- position
    UnsafeMutableRawPointer(buffer).copyMemory(from: buffer + position, byteCount: rest)
    position = 0
    count = rest
    while count &- position < n {
      let n = try source.read(into: buffer + count, capacity: OFXTokenizer.bufferBytes &- count)
      if n <= 0 {
        atEnd = true
        return false
      }
      count &+= min(n, OFXTokenizer.bufferBytes &- count)
    }
    return true
  }

  /// The inside of a CDATA section (after `<![CDATA[`, through `]]>`) into `value`, as written.
  mutating func readCDATA(_ run: inout TextRun, startLine: Int) throws(ImportError) {
    let end: [UInt8] = [0x5D, 0x5D, 0x3E]
    var matched = 0
    while true {
      guard let b = try take() else { throw truncated(startLine) }
      if b == end[matched] {
        matched += 1
        if matched == end.count { return }
        continue
      }
      // A partial `]]>` that failed is content: `]]]>` keeps one `]` and still ends.
      var pending: [UInt8]
      if matched == 2 && b == 0x5D {
        pending = [0x5D]
      } else {
        pending = Array(end.prefix(matched)) + [b]
        matched = 0
      }
      for p in pending {
        let blank = OFXTokenizer.isBlank(p)
        if !run.started {
          if blank { continue }
          run.started = true
          run.firstLine = line
        }
        run.total &+= 1
        if !blank { run.significant = run.total }
        if run.total <= maxValueBytes {
          value[run.kept] = p
          run.kept &+= 1
        }
      }
    }
  }

  /// The plain text read since `rawFrom`, its references checked (counting lines from its
  /// start) and decoded where it is, before a comment or a CDATA section (whose `&` is no
  /// reference) joins the value.
  mutating func settle(_ run: inout TextRun) throws(ImportError) {
    guard run.kept > run.rawFrom else { return }
    let line = run.rawFrom == 0 ? run.firstLine : run.rawLine
    try checkReferences(from: run.rawFrom, to: run.kept, line: line)
    run.kept = OFXTokenizer.decodeReferences(value, from: run.rawFrom, to: run.kept)
    run.rawFrom = run.kept
  }

  func tooLong(total: Int) -> ImportError {
    let shown =
      String(decoding: UnsafeBufferPointer(start: value, count: min(valueCount, 48)), as: UTF8.self)
      + "… (\(total) bytes)"
    return .row(
      ImportIssue(
        kind: .fieldTooLong, file: file, line: tokenLine, column: nil,
        columnName: lastOpened?.text, rawValue: shown,
        message: "the value is \(total) bytes; the limit is \(ImportLimits.size(maxValueBytes))",
        hint: "no bank writes a value this long: the file may be damaged, or it is not an OFX file"))
  }

  /// What follows a `<`: a tag, or nil for a comment or a declaration (skipped).
  mutating func tag(startLine: Int) throws(ImportError) -> Token? {
    tokenLine = startLine
    guard let first = try peek() else { throw truncated(startLine) }
    switch first {
    case 0x21:  // <!
      _ = try take()
      return try declaration(startLine: startLine)
    case 0x3F:  // <?
      _ = try take()
      return try instruction(startLine: startLine)
    case 0x2F:  // </
      _ = try take()
      let (name, _) = try nameAndRest(startLine: startLine)
      return .close(name)
    default:
      let (name, selfClosing) = try nameAndRest(startLine: startLine)
      if name.id == 0 && name.other.isEmpty { return nil }
      lastOpened = name
      return .open(name, selfClosing: selfClosing)
    }
  }

  /// Reads a tag's name (upper-cased) and skips its attributes up to `>`, telling whether it
  /// ended with `/>`.
  mutating func nameAndRest(startLine: Int) throws(ImportError) -> (OFXName, Bool) {
    if let plain = plainName() { return plain }
    var length = 0
    var hash = OFXNameTable.seed
    while let b = try peek(), OFXTokenizer.isBlank(b) { _ = try take() }
    while let b = try peek(), !OFXTokenizer.isBlank(b), b != 0x3E, b != 0x2F, b != 0x3C {
      _ = try take()
      if length >= OFXTokenizer.maxNameBytes {
        throw .row(
          ImportIssue(
            kind: .fieldTooLong, file: file, line: startLine, column: nil, columnName: nil,
            rawValue: String(decoding: UnsafeBufferPointer(start: name, count: 48), as: UTF8.self) + "…",
            message: "a tag name longer than \(OFXTokenizer.maxNameBytes) bytes",
            hint: "the file is damaged or not an OFX file"))
      }
      let upper = b &- 0x61 < 26 ? b &- 0x20 : b
      name[length] = upper
      length &+= 1
      hash = (hash ^ UInt64(upper)) &* OFXNameTable.prime
    }
    // Attributes (OFX has none, but XML allows them): skip to `>`, minding quotes.
    var quote: UInt8 = 0
    var lastSignificant: UInt8 = 0
    while true {
      guard let b = try peek() else { throw truncated(startLine) }
      if quote == 0 && b == 0x3C {
        // A `<` before this tag's `>`: the tag was never closed; let the next one be read.
        break
      }
      _ = try take()
      if quote != 0 {
        if b == quote { quote = 0 }
        continue
      }
      if b == 0x22 || b == 0x27 {
        quote = b
      } else if b == 0x3E {
        break
      }
      if !OFXTokenizer.isBlank(b) { lastSignificant = b }
    }
    let found =
      length == 0 ? OFXName(other: "") : names.lookup(UnsafeBufferPointer(start: name, count: length), hash: hash)
    return (found, lastSignificant == 0x2F)
  }

  /// The common tag, `NAME>` with the name and its `>` in the buffer (no blank, attribute or
  /// `/`): its name, read in one pass over the buffer. Nil, with nothing consumed, for any
  /// other; `nameAndRest` then reads it a byte at a time.
  mutating func plainName() -> (OFXName, Bool)? {
    let buffer = self.buffer
    let name = self.name
    let start = position
    let end = min(count, start &+ OFXTokenizer.maxNameBytes)
    var hash = OFXNameTable.seed
    var i = start
    while i < end {
      let b = buffer[i]
      if b == 0x3E {
        guard i > start else { return nil }
        position = i &+ 1
        previousWasCR = false
        return (names.lookup(UnsafeBufferPointer(start: name, count: i &- start), hash: hash), false)
      }
      if OFXTokenizer.isBlank(b) || b == 0x2F || b == 0x3C { return nil }
      let upper = b &- 0x61 < 26 ? b &- 0x20 : b
      name[i &- start] = upper
      hash = (hash ^ UInt64(upper)) &* OFXNameTable.prime
      i &+= 1
    }
    return nil
  }

  /// `<!-- … -->` is skipped and `<![CDATA[ … ]]>` is text, taken literally. Any other `<!`
  /// (`<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`, a marked section) is refused: no bank's OFX file
  /// declares a DTD or entities, and one that does is either damaged or built to make a reader
  /// expand or fetch something.
  mutating func declaration(startLine: Int) throws(ImportError) -> Token? {
    if try peek() == 0x2D {
      _ = try take()
      guard try take() == 0x2D else { throw declarationRefused(startLine, keyword: "-") }
      return try skip(to: [0x2D, 0x2D, 0x3E], startLine: startLine)
    }
    var marker: [UInt8] = []
    if try peek() == 0x5B {  // [CDATA[
      while marker.count < 7, let b = try peek(), b != 0x3E {
        _ = try take()
        marker.append(b)
      }
    }
    while marker.count < 12, let b = try peek(), (b | 0x20) &- 0x61 < 26 {
      _ = try take()
      marker.append(b)
    }
    throw declarationRefused(
      startLine, keyword: String(decoding: marker.filter { $0 < 0x80 && $0 >= 0x20 }, as: UTF8.self))
  }

  func declarationRefused(_ line: Int, keyword: String) -> ImportError {
    .malformed(
      file: file, line: line,
      message:
        "a markup declaration (<!\(visibleControlCharacters(keyword)) …): a DTD or entities are not read (for safety)",
      hint:
        "a bank's OFX export has no <!DOCTYPE> or <!ENTITY>: export the statement again, or remove that declaration if you know the file"
    )
  }

  /// Refuses a reference to an entity other than the five XML predefines (`&copy;`, `&xxe;`):
  /// OFX has no DTD to define one, and keeping it as written would store text the bank never
  /// meant. A `&` not followed by a name and `;` (`AT&T`) is text; `&#…;` is a character
  /// reference. Only text that holds a `&` is looked at: `value[start..<end]`, which starts on
  /// line `startLine`.
  func checkReferences(from start: Int, to end: Int, line startLine: Int) throws(ImportError) {
    let bytes = UnsafeBufferPointer(start: value + start, count: end &- start)
    guard bytes.contains(0x26) else { return }
    var line = startLine
    var cr = false
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      OFXTokenizer.count(b, line: &line, afterCR: &cr)
      if b == 0x26, let name = OFXTokenizer.entityName(bytes, at: i &+ 1),
        !["amp", "lt", "gt", "quot", "apos"].contains(name)
      {
        throw .malformed(
          file: file, line: line,
          message: "a reference to the entity &\(name); that is not defined (only &amp; &lt; &gt; &quot; &apos; are)",
          hint: "OFX defines no other entity and none is looked up: the file is damaged or not a bank's export")
      }
      i &+= 1
    }
  }

  /// The name of an entity reference whose name starts at `start` (`name;`: an ASCII letter or
  /// `_`, then letters, digits, `.`, `-`, `_`, at most 32 bytes), or nil when none does.
  static func entityName(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> String? {
    guard start < bytes.count, (bytes[start] | 0x20) &- 0x61 < 26 || bytes[start] == 0x5F else { return nil }
    var i = start &+ 1
    while i < bytes.count && i &- start <= 32 {
      let b = bytes[i]
      if b == 0x3B { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) }
      guard (b | 0x20) &- 0x61 < 26 || b &- 0x30 < 10 || b == 0x2E || b == 0x2D || b == 0x5F else { return nil }
      i &+= 1
    }
    return nil
  }

  /// `<? … ?>`: its inside, at most `maxInstructionBytes` of it.
  mutating func instruction(startLine: Int) throws(ImportError) -> Token? {
    var bytes: [UInt8] = []
    var previous: UInt8 = 0
    while true {
      guard let b = try take() else { throw truncated(startLine) }
      if b == 0x3E && previous == 0x3F { break }
      if bytes.count < OFXTokenizer.maxInstructionBytes { bytes.append(b) }
      previous = b
    }
    if bytes.last == 0x3F { bytes.removeLast() }
    return .instruction(String(decoding: bytes, as: UTF8.self))
  }

  /// Skips past `end`; nil (nothing to return).
  mutating func skip(to end: [UInt8], startLine: Int) throws(ImportError) -> Token? {
    var matched = 0
    while true {
      guard let b = try take() else { throw truncated(startLine) }
      if b == end[matched] {
        matched += 1
        if matched == end.count { return nil }
      } else {
        matched = b == end[0] ? 1 : 0
      }
    }
  }

  func truncated(_ startLine: Int) -> ImportError {
    .undetectable(
      file: file, message: "the file ends inside a tag that starts on line \(startLine)",
      hint: "the file is truncated: download the statement again")
  }

  // MARK: References

  /// Decodes `&amp; &lt; &gt; &quot; &apos; &#NN; &#xNN;`; anything else after `&` (another
  /// entity, a bare `&` as in `AT&T`, a reference to no character) is kept as written.
  static func decodeReferences(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      guard b == 0x26, let semicolon = bytes[i...].prefix(12).firstIndex(of: 0x3B) else {
        out.append(b)
        i += 1
        continue
      }
      let name = bytes[(i + 1)..<semicolon]
      if let replacement = reference(name) {
        out.append(contentsOf: replacement)
        i = semicolon + 1
      } else {
        out.append(b)
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes the references of `bytes[start..<end]` where they are (each is longer than the
  /// character it stands for, so the text only shrinks), as `decodeReferences` does; returns the
  /// new end.
  static func decodeReferences(_ bytes: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int) -> Int {
    let text = UnsafeBufferPointer(start: bytes, count: end)
    var out = start
    var i = start
    while i < end {
      let b = text[i]
      guard b == 0x26, let semicolon = text[i..<end].prefix(12).firstIndex(of: 0x3B),
        let replacement = reference(text[(i + 1)..<semicolon])
      else {
        bytes[out] = b
        out += 1
        i += 1
        continue
      }
      for r in replacement {
        bytes[out] = r
        out += 1
      }
      i = semicolon + 1
    }
    return out
  }

  /// The UTF-8 bytes a reference's name (between `&` and `;`) stands for, or nil.
  static func reference(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]? {
    switch Array(name) {
    case Array("amp".utf8): return [0x26]
    case Array("lt".utf8): return [0x3C]
    case Array("gt".utf8): return [0x3E]
    case Array("quot".utf8): return [0x22]
    case Array("apos".utf8): return [0x27]
    default: break
    }
    guard name.first == 0x23 else { return nil }  // #
    var digits = name.dropFirst()
    var radix: UInt32 = 10
    if let x = digits.first, x == 0x78 || x == 0x58 {
      radix = 16
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.count <= 8 else { return nil }
    var value: UInt32 = 0
    for d in digits {
      let digit: UInt32
      if d &- 0x30 < 10 {
        digit = UInt32(d &- 0x30)
      } else if radix == 16 && (d | 0x20) &- 0x61 < 6 {
        digit = UInt32((d | 0x20) &- 0x61) &+ 10
      } else {
        return nil
      }
      value = value &* radix &+ digit
    }
    guard value != 0, value <= 0x10FFFF, let scalar = Unicode.Scalar(value) else { return nil }
    return Array(String(Character(scalar)).utf8)
  }
}

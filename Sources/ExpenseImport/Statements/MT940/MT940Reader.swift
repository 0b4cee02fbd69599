import ExpenseCore

/// Reads SWIFT MT940 customer statements: one or more messages (`:20:` … `:62F:`), with or
/// without the SWIFT envelope (`{1:…}{2:…}{4:` … `-}`). Each `:61:` line is an entry, its
/// description taken from the `:86:` after it; every statement's entries must lead from its
/// opening balance (`:60F:`/`:60M:`) to its closing one (`:62F:`/`:62M:`), so a cut or edited
/// file is refused instead of imported short.
///
/// Why line-based: MT940 is a sequence of fields, each starting with `:TAG:` at the start of a
/// line and continued by the lines that do not; `LineReader` keeps one line, the reader one
/// field and one pending entry, whatever the file's size. The input is UTF-8 (the importer
/// transcodes other encodings first); a leading byte order mark is skipped.
///
/// Dates are `YYMMDD`; the year is 20YY (MT940 has no century, and the supported dates of a
/// bank statement are this century's).
public struct MT940Reader: StatementReader {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency
  public private(set) var settings: [StatementSetting] = []

  public init(file: String, options: ImportOptions, defaultCurrency: Currency) {
    self.file = file
    self.options = options
    self.defaultCurrency = defaultCurrency
  }

  public mutating func read(_ source: any ByteSource, _ body: (StatementEvent) throws -> Void) throws {
    var state = MT940State(file: file, options: options)
    defer { settings = state.settings }
    let lines = LineReader(source)
    var field: MT940Field?
    var first = true
    while var bytes = try lines.next(file: file) {
      if first {
        first = false
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      }
      var line = String(decoding: bytes, as: UTF8.self)
      // The SWIFT envelope: `{1:…}{2:…}{4:` opens the text block, whose rest is content.
      if line.hasPrefix("{") {
        guard let open = line.range(of: "{4:") else { continue }
        line = String(line[open.upperBound...])
        if line.isEmpty { continue }
      }
      // `-` alone or `-}{5:…}` ends a message (a text line may start with `-` too).
      if line.trimmingASCIIWhitespace() == "-" || line.hasPrefix("-}") {
        if let done = field { try state.process(done, body) }
        field = nil
        continue
      }
      if let tag = MT940Reader.tag(of: line) {
        if let done = field { try state.process(done, body) }
        field = MT940Field(tag: tag, line: lines.line, lines: [String(line.dropFirst(tag.count + 2))])
      } else if field != nil {
        if line.trimmingASCIIWhitespace().isEmpty { continue }
        field?.append(line)
      }
      if let current = field, current.byteCount > ImportLimits.maxFieldBytes { throw tooLong(current) }
    }
    if let done = field { try state.process(done, body) }
    try state.finish(body)
  }

  func tooLong(_ field: MT940Field) -> ImportError {
    .row(
      ImportIssue(
        kind: .fieldTooLong, file: file, line: field.line, column: nil, columnName: ":\(field.tag):",
        rawValue: String(field.text(separator: " ").prefix(48)) + "…",
        message: "a field longer than \(ImportLimits.size(ImportLimits.maxFieldBytes))",
        hint: "the file is damaged or not an MT940 statement"))
  }

  /// The tag of a line that starts a field (`:20:`, `:60F:`, `:940:`), without its colons.
  static func tag(of line: String) -> String? {
    let bytes = Array(line.utf8.prefix(6))
    guard bytes.count >= 4, bytes[0] == UInt8(ascii: ":") else { return nil }
    var i = 1
    while i < bytes.count && i <= 3 && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
    guard i >= 3 else { return nil }
    if i < bytes.count && bytes[i] >= UInt8(ascii: "A") && bytes[i] <= UInt8(ascii: "Z") { i += 1 }
    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
    return String(decoding: bytes[1..<i], as: UTF8.self)
  }
}

/// One field: its tag, the line it starts on and its lines (the first without the tag).
struct MT940Field {
  var tag: String
  var line: Int
  private(set) var lines: [String]
  /// The bytes of `lines`, counted as they are added: summing them again at every line made a
  /// field of many short lines take quadratic time.
  private(set) var byteCount: Int

  init(tag: String, line: Int, lines: [String]) {
    self.tag = tag
    self.line = line
    self.lines = lines
    byteCount = lines.reduce(0) { $0 &+ $1.utf8.count }
  }

  mutating func append(_ line: String) {
    lines.append(line)
    byteCount &+= line.utf8.count
  }

  func text(separator: String) -> String { lines.joined(separator: separator) }
}

import ExpenseCore

/// `list --format json` one row at a time: the bytes of `ExpenseResource.json` (JSONEncoder's
/// pretty, key-sorted array through `SafeJSON`), written as the rows are read.
///
/// The layout is JSONEncoder's: two spaces per level, `"key" : value`, keys in sorted order,
/// `null` for what is absent, `[]` for no rows. Strings are escaped as JSONEncoder escapes them
/// (`\"`, `\\`, `\b \f \n \r \t`, other C0 controls as `\u00XX`) and then as `SafeJSON`
/// escapes what it adds (`\u007f`, C1 controls, separators, bidi controls); a test compares
/// every scalar with the encoder itself.
public struct ExpenseJSONStream {
  private var rows = 0
  /// Two spaces per level the array is nested in: 0 for `list`'s top-level array, 1 for the
  /// report's `expenses` member.
  private let depth: Int
  /// The constant text between a row's values, indentation included.
  private let pieces: Pieces
  /// The other side of each paired row, by id: a row in a transfer pair ends with
  /// `"transferWith" : ID` (`ExpenseResource` leaves the key out otherwise).
  public var transferPartners: [Int64: Int64] = [:]
  /// A row's tags (names of letters, digits and `-_./`, which JSON writes as they are): a row
  /// with some has `"tags" : [...]` before `transferWith` (`ExpenseResource` leaves the key out
  /// otherwise).
  public var tags: ((ExpenseRow) -> [String])? = nil

  public init(depth: Int = 0) {
    self.depth = max(0, depth)
    pieces = Pieces(depth: self.depth)
  }

  /// The constant runs of a row's text at one depth, each written with one copy: a row's
  /// dozen keys, line breaks and indents were as many small writes, about a tenth of a busy
  /// month's JSON report (callgrind).
  private struct Pieces {
    let open, amount, category, currency, date, description, id: [UInt8]
    let sourceFile, sourceLine, sourceEnd, sourceLineKey, noSource, transferWith, close: [UInt8]
    let tags, tag, tagsEnd: [UInt8]

    init(depth: Int) {
      let indent = "\n" + String(repeating: " ", count: 2 * depth)
      open = Array((indent + "  {" + indent + "    \"account\" : ").utf8)
      amount = Array(("," + indent + "    \"amountMinor\" : ").utf8)
      category = Array(("," + indent + "    \"category\" : ").utf8)
      currency = Array(("," + indent + "    \"currency\" : \"").utf8)
      date = Array(("\"," + indent + "    \"date\" : \"").utf8)
      description = Array(("\"," + indent + "    \"description\" : ").utf8)
      id = Array(("," + indent + "    \"id\" : ").utf8)
      sourceFile = Array(("," + indent + "    \"source\" : {" + indent + "      \"file\" : ").utf8)
      sourceLine = Array(("," + indent + "      \"line\" : ").utf8)
      sourceEnd = Array((indent + "    }," + indent + "    \"sourceFile\" : ").utf8)
      sourceLineKey = Array(("," + indent + "    \"sourceLine\" : ").utf8)
      noSource = Array(
        ("," + indent + "    \"source\" : null," + indent + "    \"sourceFile\" : null," + indent
          + "    \"sourceLine\" : null").utf8)
      transferWith = Array(("," + indent + "    \"transferWith\" : ").utf8)
      close = Array((indent + "  }").utf8)
      tags = Array(("," + indent + "    \"tags\" : [").utf8)
      tag = Array((indent + "      \"").utf8)
      tagsEnd = Array((indent + "    ]").utf8)
    }
  }

  /// A line break and the array's own indentation; `text` follows it.
  private func line(_ text: StaticString, into out: inout OutputBuffer) {
    out.append(UInt8(ascii: "\n"))
    if depth > 0 { out.appendSpaces(2 * depth) }
    out.append(text)
  }

  /// One expense as the next element of the array.
  public mutating func write(_ row: ExpenseRow, into out: inout OutputBuffer) {
    out.append(rows == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
    rows += 1
    out.append(pieces.open)
    appendOptional(row.account, into: &out)
    out.append(pieces.amount)
    out.appendInteger(row.amount.minor)
    out.append(pieces.category)
    appendOptional(row.category, into: &out)
    out.append(pieces.currency)
    out.append(row.amount.currency.code)
    out.append(pieces.date)
    appendDate(row.date, into: &out)
    out.append(pieces.description)
    ExpenseJSONStream.appendString(row.description, into: &out)
    out.append(pieces.id)
    if let id = row.id { out.appendInteger(id) } else { out.append("null" as StaticString) }
    if let file = row.sourceFile {
      out.append(pieces.sourceFile)
      ExpenseJSONStream.appendString(file, into: &out)
      out.append(pieces.sourceLine)
      out.appendInteger(Int64(row.sourceLine))
      out.append(pieces.sourceEnd)
      ExpenseJSONStream.appendString(file, into: &out)
      out.append(pieces.sourceLineKey)
      out.appendInteger(Int64(row.sourceLine))
    } else {
      out.append(pieces.noSource)
    }
    if let names = tags?(row), !names.isEmpty {
      out.append(pieces.tags)
      for (index, name) in names.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        out.append(pieces.tag)
        out.append(name)
        out.append(UInt8(ascii: "\""))
      }
      out.append(pieces.tagsEnd)
    }
    if !transferPartners.isEmpty, let id = row.id, let partner = transferPartners[id] {
      out.append(pieces.transferWith)
      out.appendInteger(partner)
    }
    out.append(pieces.close)
  }

  /// Ends the array; no newline after it. With no row: `[]` at the top level (`list`'s
  /// `ExpenseResource.json`), and JSONEncoder's own pretty empty array, `[`, an empty line,
  /// `]`, when nested (the report's `expenses`, which the encoder wrote before it streamed).
  public func finish(into out: inout OutputBuffer) {
    if rows == 0 {
      if depth == 0 {
        out.append("[]" as StaticString)
      } else {
        out.append("[\n" as StaticString)
        line("]" as StaticString, into: &out)
      }
    } else {
      line("]" as StaticString, into: &out)
    }
  }

  private func appendOptional(_ bytes: UnsafeBufferPointer<UInt8>?, into out: inout OutputBuffer) {
    if let bytes { ExpenseJSONStream.appendString(bytes, into: &out) } else { out.append("null" as StaticString) }
  }

  /// A JSON string of `bytes` as `SafeJSON.text` writes it.
  static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout OutputBuffer) {
    if TextBytes.kind(bytes) != .needsSanitizing {
      out.appendBackslashQuoted(bytes)
      return
    }
    out.append(UInt8(ascii: "\""))
    for scalar in ExpenseRow.string(bytes).unicodeScalars {
      let v = scalar.value
      switch v {
      case 0x22: out.append("\\\"" as StaticString)
      case 0x5C: out.append("\\\\" as StaticString)
      case 0x08: out.append("\\b" as StaticString)
      case 0x09: out.append("\\t" as StaticString)
      case 0x0A: out.append("\\n" as StaticString)
      case 0x0C: out.append("\\f" as StaticString)
      case 0x0D: out.append("\\r" as StaticString)
      case _ where v < 0x20 || SafeJSON.needsEscape(v):
        out.append("\\u" as StaticString)
        for shift in stride(from: 12, through: 0, by: -4) {
          out.append(hexDigits[Int((v >> UInt32(shift)) & 0xF)])
        }
      default:
        out.append(String(scalar))
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}

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

  public init(depth: Int = 0) { self.depth = max(0, depth) }

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
    line("  {" as StaticString, into: &out)
    line("    \"account\" : " as StaticString, into: &out)
    appendOptional(row.account, into: &out)
    out.append(UInt8(ascii: ","))
    line("    \"amountMinor\" : " as StaticString, into: &out)
    out.appendInteger(row.amount.minor)
    out.append(UInt8(ascii: ","))
    line("    \"category\" : " as StaticString, into: &out)
    appendOptional(row.category, into: &out)
    out.append(UInt8(ascii: ","))
    line("    \"currency\" : \"" as StaticString, into: &out)
    out.append(row.amount.currency.code)
    out.append("\"," as StaticString)
    line("    \"date\" : \"" as StaticString, into: &out)
    appendDate(row.date, into: &out)
    out.append("\"," as StaticString)
    line("    \"description\" : " as StaticString, into: &out)
    ExpenseJSONStream.appendString(row.description, into: &out)
    out.append(UInt8(ascii: ","))
    line("    \"id\" : " as StaticString, into: &out)
    if let id = row.id { out.appendInteger(id) } else { out.append("null" as StaticString) }
    out.append(UInt8(ascii: ","))
    if let file = row.sourceFile {
      line("    \"source\" : {" as StaticString, into: &out)
      line("      \"file\" : " as StaticString, into: &out)
      ExpenseJSONStream.appendString(file, into: &out)
      out.append(UInt8(ascii: ","))
      line("      \"line\" : " as StaticString, into: &out)
      out.appendInteger(Int64(row.sourceLine))
      line("    }," as StaticString, into: &out)
      line("    \"sourceFile\" : " as StaticString, into: &out)
      ExpenseJSONStream.appendString(file, into: &out)
      out.append(UInt8(ascii: ","))
      line("    \"sourceLine\" : " as StaticString, into: &out)
      out.appendInteger(Int64(row.sourceLine))
    } else {
      line("    \"source\" : null," as StaticString, into: &out)
      line("    \"sourceFile\" : null," as StaticString, into: &out)
      line("    \"sourceLine\" : null" as StaticString, into: &out)
    }
    line("  }" as StaticString, into: &out)
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

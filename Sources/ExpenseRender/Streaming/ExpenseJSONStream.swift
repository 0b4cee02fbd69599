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

  public init() {}

  /// One expense as the next element of the array.
  public mutating func write(_ row: ExpenseRow, into out: inout OutputBuffer) {
    out.append(rows == 0 ? "[\n  {\n" as StaticString : ",\n  {\n" as StaticString)
    rows += 1
    out.append("    \"account\" : " as StaticString)
    appendOptional(row.account, into: &out)
    out.append(",\n    \"amountMinor\" : " as StaticString)
    out.appendInteger(row.amount.minor)
    out.append(",\n    \"category\" : " as StaticString)
    appendOptional(row.category, into: &out)
    out.append(",\n    \"currency\" : \"" as StaticString)
    out.append(row.amount.currency.code)
    out.append("\",\n    \"date\" : \"" as StaticString)
    appendDate(row.date, into: &out)
    out.append("\",\n    \"description\" : " as StaticString)
    ExpenseJSONStream.appendString(row.description, into: &out)
    out.append(",\n    \"id\" : " as StaticString)
    if let id = row.id { out.appendInteger(id) } else { out.append("null" as StaticString) }
    if let file = row.sourceFile {
      out.append(",\n    \"source\" : {\n      \"file\" : " as StaticString)
      ExpenseJSONStream.appendString(file, into: &out)
      out.append(",\n      \"line\" : " as StaticString)
      out.appendInteger(Int64(row.sourceLine))
      out.append("\n    },\n    \"sourceFile\" : " as StaticString)
      ExpenseJSONStream.appendString(file, into: &out)
      out.append(",\n    \"sourceLine\" : " as StaticString)
      out.appendInteger(Int64(row.sourceLine))
    } else {
      out.append(",\n    \"source\" : null,\n    \"sourceFile\" : null,\n    \"sourceLine\" : null" as StaticString)
    }
    out.append("\n  }" as StaticString)
  }

  /// Ends the array (`[]` when no row was written); no newline after it.
  public func finish(into out: inout OutputBuffer) {
    out.append(rows == 0 ? "[]" as StaticString : "\n]" as StaticString)
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

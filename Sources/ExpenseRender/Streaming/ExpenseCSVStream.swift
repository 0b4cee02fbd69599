import ExpenseCore

/// `list --format csv` one row at a time: the bytes of `ExpenseCSVRenderer.render`, written as
/// the rows are read, so memory does not grow with them.
///
/// Cells are the renderer's: number columns written from integers, text columns as
/// `CSVWriter.text` makes them and quoted as `CSVField.quoted` does. A text that sanitizing
/// leaves unchanged (`TextBytes`) is copied byte for byte, with the formula guard and the
/// quoting applied to the bytes; any other text goes through those very functions.
public enum ExpenseCSVStream {
  /// The header record.
  public static func writeHeader(into out: inout OutputBuffer) {
    out.append(CSVWriter(lineEnd: .crlf).record(ExpenseCSVRenderer.header))
  }

  /// One expense's record.
  public static func write(_ row: ExpenseRow, into out: inout OutputBuffer) {
    if let id = row.id { out.appendInteger(id) }
    out.append(UInt8(ascii: ","))
    appendDate(row.date, into: &out)
    out.append(UInt8(ascii: ","))
    out.appendInteger(row.amount.minor)
    out.append(UInt8(ascii: ","))
    out.appendAmount(row.amount.minor, minorUnits: row.amount.currency.minorUnits)
    out.append(UInt8(ascii: ","))
    out.append(row.amount.currency.code)  // ISO letters: never quoted
    out.append(UInt8(ascii: ","))
    appendText(row.description, into: &out)
    out.append(UInt8(ascii: ","))
    if let category = row.category { appendText(category, into: &out) }
    out.append(UInt8(ascii: ","))
    if let account = row.account { appendText(account, into: &out) }
    out.append(UInt8(ascii: ","))
    if let file = row.sourceFile {
      appendText(file, into: &out)
      out.append(UInt8(ascii: ","))
      out.appendInteger(Int64(row.sourceLine))
    } else {
      out.append(UInt8(ascii: ","))
    }
    out.append("\r\n" as StaticString)
  }

  /// A text cell: `CSVField.quoted(CSVWriter.text(text))`.
  static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout OutputBuffer) {
    if TextBytes.kind(bytes) == .needsSanitizing {
      out.append(CSVField.quoted(CSVWriter.text(ExpenseRow.string(bytes))))
      return
    }
    // Inert text: sanitizing keeps it, and it can hold no tab, CR or LF.
    let formula = bytes.first.map { "=+-@".utf8.contains($0) } ?? false
    let quoted = TextBytes.contains(bytes, UInt8(ascii: "\"")) || TextBytes.contains(bytes, UInt8(ascii: ","))
    if quoted { out.append(UInt8(ascii: "\"")) }
    if formula { out.append(UInt8(ascii: "'")) }
    if quoted {
      var start = 0
      for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\"") {
        out.append(UnsafeBufferPointer(rebasing: bytes[start...index]))
        start = index
      }
      out.append(UnsafeBufferPointer(rebasing: bytes[start...]))
      out.append(UInt8(ascii: "\""))
    } else {
      out.append(bytes)
    }
  }
}

/// `CivilDate.description` (`2026-10-05`: a four-digit year, then month and day in two).
func appendDate(_ date: CivilDate, into out: inout OutputBuffer) {
  appendPadded(date.year, 4, into: &out)
  out.append(UInt8(ascii: "-"))
  appendPadded(date.month, 2, into: &out)
  out.append(UInt8(ascii: "-"))
  appendPadded(date.day, 2, into: &out)
}

/// A non-negative number in at least `width` digits, zeros in front.
func appendPadded(_ value: Int, _ width: Int, into out: inout OutputBuffer) {
  var digits = 1
  var rest = value / 10
  while rest > 0 {
    digits += 1
    rest /= 10
  }
  for _ in digits..<max(digits, width) { out.append(UInt8(ascii: "0")) }
  out.appendInteger(Int64(value))
}

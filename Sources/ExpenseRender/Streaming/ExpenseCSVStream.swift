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
    let (kind, quoted) = TextBytes.scan(bytes, UInt8(ascii: "\""), UInt8(ascii: ","))
    if kind == .needsSanitizing {
      out.append(CSVField.quoted(CSVWriter.text(ExpenseRow.string(bytes))))
      return
    }
    // Inert text: sanitizing keeps it, and it can hold no tab, CR or LF.
    var formula = false
    if let first = bytes.first {
      switch first {
      case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"): formula = true
      default: break
      }
    }
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

/// `CivilDate.description` (`2026-10-05`: a four-digit year, then month and day in two; a
/// `CivilDate`'s year is 1 through 9999).
func appendDate(_ date: CivilDate, into out: inout OutputBuffer) {
  out.appendFixedDigits(date.year, width: 4)
  out.append(UInt8(ascii: "-"))
  out.appendFixedDigits(date.month, width: 2)
  out.append(UInt8(ascii: "-"))
  out.appendFixedDigits(date.day, width: 2)
}

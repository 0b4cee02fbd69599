/// RFC 4180 quoting of one field: the one definition, used by every CSV the program writes
/// (`CSVWriter` in ExpenseRender) and by the importer when it re-joins a rejected record in its
/// file's own delimiter. Here, below both, because it is text only: no I/O, no sanitizing.
public enum CSVField {
  /// `field` quoted, its quotes doubled, when it holds `delimiter`, a quote, CR or LF; else as it
  /// is. Checked by Unicode scalar, as a CSV reader reads: a quote or comma that a combining mark
  /// joins into one `Character` is still found.
  public static func quoted(_ field: String, delimiter: Unicode.Scalar = ",") -> String {
    guard field.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == delimiter })
    else { return field }
    var out = String.UnicodeScalarView()
    out.append("\"")
    for scalar in field.unicodeScalars {
      out.append(scalar)
      if scalar == "\"" { out.append("\"") }
    }
    out.append("\"")
    return String(out)
  }
}

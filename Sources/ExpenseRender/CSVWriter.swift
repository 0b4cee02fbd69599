import ExpenseCore

/// The one CSV writer: every CSV file or stream the program writes (the report's table, `list
/// --format csv`, the `import --rejects` file) is made of its records and cells.
///
/// - Records: fields quoted per RFC 4180 (`CSVField.quoted`: a field with a comma, quote, CR or
///   LF is quoted, its quotes doubled), joined by commas, each ended by the writer's line end
///   (CRLF, the RFC's, unless a file's format says LF).
/// - Text cells (`text`): anything that can hold text from a bank file or the command line.
///   Control characters are made visible (`TerminalText.sanitize`: a CSV is often read with
///   `cat`), and a cell that starts with `=`, `+`, `-`, `@`, tab or CR, which a spreadsheet runs
///   as a formula, gets a leading `'` so it is shown as text.
/// - Number cells are written as they are: a caller writes them from integers, so they can only
///   be `-?digits[.digits]`, never a formula, and `-18.40` stays a number a spreadsheet can sum.
///   Which cells are text is decided by column, never by guessing from the value.
public struct CSVWriter: Sendable {
  /// What ends each record.
  public enum LineEnd: String, Sendable {
    /// RFC 4180's CRLF: the report and `list --format csv`.
    case crlf = "\r\n"
    /// LF: the rejects file, read mostly in a terminal or an editor.
    case lf = "\n"
  }

  public let lineEnd: LineEnd

  public init(lineEnd: LineEnd = .crlf) { self.lineEnd = lineEnd }

  /// One record: `fields` quoted, joined by commas, the line end after.
  public func record(_ fields: [String]) -> String {
    // One empty field alone would be an empty line, which a reader takes for no field at all.
    if fields == [""] { return "\"\"" + lineEnd.rawValue }
    return fields.map { CSVField.quoted($0) }.joined(separator: ",") + lineEnd.rawValue
  }

  /// A whole table: the header, then one record per row.
  public func table(header: [String], rows: [[String]]) -> String {
    var out = record(header)
    for row in rows { out += record(row) }
    return out
  }

  /// A text cell: control characters made visible and a formula defused (see the type).
  public static func text(_ s: String) -> String {
    // Checked before sanitizing too: sanitize turns a leading tab or CR into a space.
    if let first = s.unicodeScalars.first, "\t\r".unicodeScalars.contains(first) {
      return "'" + TerminalText.sanitize(s)
    }
    return defused(TerminalText.sanitize(s))
  }

  /// A record of a bank's file kept whole in one cell (the rejects file's `record`), safe as
  /// `text` makes a cell, except that tabs are kept: they may be the file's delimiter, and a
  /// record that keeps its delimiters can be pasted back under the file's header and imported
  /// again once fixed. Line breaks inside its quoted fields become spaces, which the importer
  /// reads as the same record.
  public static func bankRecord(_ s: String) -> String {
    if let first = s.unicodeScalars.first, "\t\r".unicodeScalars.contains(first) {
      return "'" + keepingTabs(s)
    }
    return defused(keepingTabs(s))
  }

  /// Whether `s` starts with a character a spreadsheet takes for the start of a formula.
  public static func looksLikeFormula(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first else { return false }
    return "=+-@\t\r".unicodeScalars.contains(first)
  }

  private static func defused(_ s: String) -> String { looksLikeFormula(s) ? "'" + s : s }

  private static func keepingTabs(_ s: String) -> String {
    s.split(separator: "\t", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
      .joined(separator: "\t")
  }
}

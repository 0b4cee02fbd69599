import ExpenseImport
import ExpenseRender

/// Writes rejected rows and their reasons as CSV: line, column, value, message, hint and the
/// record as the file held it, through a checked `OutputFile` (never the database, the input
/// or an existing file), renamed into place only when the import has committed.
///
/// Written by `CSVWriter` with LF line ends. Every cell but `line` can hold the bank's text, so
/// each is made safe: control characters made visible and a formula defused with a leading `'`
/// (`CSVWriter.text`). The record keeps its tabs and delimiters (`CSVWriter.bankRecord`), so a
/// fixed record pasted under the bank file's header imports again.
struct RejectsWriter {
  static let header = ["line", "column", "value", "message", "hint", "record"]
  let file: OutputFile
  let writer = CSVWriter(lineEnd: .lf)

  init(path: String, force: Bool, protected: ProtectedFiles, input: String) throws {
    var protected = protected
    protected.addInput(input)
    file = try OutputFile(path: path, force: force, protected: protected)
    try file.write(writer.record(RejectsWriter.header))
  }

  func write(_ issue: ImportIssue) throws {
    let column = issue.columnName ?? issue.column.map(String.init) ?? ""
    let text = [column, issue.rawValue, issue.message, issue.hint].map(CSVWriter.text)
    try file.write(writer.record([String(issue.line)] + text + [CSVWriter.bankRecord(issue.record ?? "")]))
  }

  /// Renames the file into place (an uncommitted one is removed when the writer goes).
  func commit() throws { try file.commit() }
}

import ExpenseImport

/// Writes rejected rows and their reasons as CSV: line, column, value, message, hint and the
/// record as the file held it, through a checked `OutputFile` (never the database, the input
/// or an existing file), renamed into place only when the import has committed.
struct RejectsWriter {
  let file: OutputFile

  init(path: String, force: Bool, database: String?, input: String) throws {
    file = try OutputFile(path: path, force: force, database: database, inputs: [input])
    try file.write("line,column,value,message,hint,record\n")
  }

  func write(_ issue: ImportIssue) throws {
    let column = issue.columnName ?? issue.column.map(String.init) ?? ""
    let fields = [String(issue.line), column, issue.rawValue, issue.message, issue.hint, issue.record ?? ""]
    try file.write(fields.map(RejectsWriter.quote).joined(separator: ",") + "\n")
  }

  /// Renames the file into place (an uncommitted one is removed when the writer goes).
  func commit() throws { try file.commit() }

  static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

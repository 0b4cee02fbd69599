import ExpenseImport

extension ImportSummary {
  /// Rejected and excluded rows an upload's answer lists one by one.
  public static let uploadDetailLimit = 10_000

  /// The rejected rows as the API lists them: each line, and the reason with the column and hint.
  public var rejectedReasons: [(line: Int, reason: String)] {
    rejectedIssues.map { issue in
      let column = issue.columnName.map { " (column \"\($0)\")" } ?? ""
      let hint = issue.hint.isEmpty ? "" : "; " + issue.hint
      return (issue.line, issue.message + column + hint)
    }
  }
}

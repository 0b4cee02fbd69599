import ExpenseCore

/// The expense list grouped per expense, for a screen that moves a cursor over the rows and
/// expands one in place; the lines are the ones `render` prints.
extension ExpenseListRenderer {
  /// Column header lines (none when the list falls back to cards) and each expense's lines, in
  /// the order given: one line in the table, two in the card fallback of very narrow widths.
  public func rows(_ expenses: [Expense]) -> (header: [String], rows: [[String]]) {
    let all = lines(expenses, details: false, plain: false)
    guard !expenses.isEmpty else { return ([], []) }
    // A table has a header line and one line per expense, cards two lines each and no
    // header; one expense gives two lines either way, so a pair of it tells the layouts apart.
    let table =
      expenses.count == 1
      ? lines([expenses[0], expenses[0]], details: false, plain: false).count == 3
      : all.count == expenses.count + 1
    if table { return ([all[0]], all.dropFirst().map { [$0] }) }
    return ([], stride(from: 0, to: all.count, by: 2).map { Array(all[$0..<min($0 + 2, all.count)]) })
  }

  /// An expense's details as `--details` prints them: the full description (wrapped, never
  /// truncated), category, account and source file:line, each line starting with `indent`.
  public func details(_ expense: Expense, indent: String) -> [String] {
    detailLines(expense, indent: indent)
  }
}

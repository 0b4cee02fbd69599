import ExpenseCore
import ExpenseRender

/// Every line the screen can show for one report at one width, made once by the renderer and
/// then only arranged: folding, moving and expanding rows never render the report again.
///
/// Made again when the width, the report or the filter changes. Expense rows are rendered two
/// cells narrower than the screen, leaving room for their `▸`/`▾` indicator.
struct ScreenContent {
  /// The title and its rule (and the hint of an empty report).
  var title: [String]
  /// The summary lines; empty for an empty report.
  var summary: [String]
  /// Header lines, folded and unfolded, per section that has a header.
  var headers: [SectionID: (open: String, closed: String)]
  /// Lines under an unfolded header: for the expenses section the rule and the column header.
  var bodies: [SectionID: [String]]
  /// The expenses that pass the filter, as indices into the report's `expenses`.
  var rowIndices: [Int]
  /// The lines of each of those expenses (one in a table, two as cards), without indicator.
  var rows: [[String]]
  /// Where each expense index sits in `rows`.
  var rowPosition: [Int: Int]
  /// Whether the report is empty (title and hint only).
  var isEmpty: Bool

  /// The sections with a header, in print order.
  static let folded: [SectionID] = [.categoryPerformance, .expenses, .trends]

  init(report: BudgetReport, width: Int, settings: ScreenSettings, filter: String) {
    let options = RenderOptions(width: width, glyphs: settings.glyphs, color: settings.color)
    let renderer = TextRenderer(options: options)
    title = renderer.titleLines(report)
    isEmpty = TextRenderer.isEmpty(report)
    let expenses = report.expenses ?? []
    rowIndices = RowFilter(filter).matches(in: expenses)
    var counted = report
    counted.expenseCount = rowIndices.count == expenses.count ? report.expenseCount : rowIndices.count
    summary = isEmpty ? [] : renderer.summaryLines(report)
    headers = [:]
    bodies = [:]
    for id in ScreenContent.folded where !isEmpty {
      let source = id == .expenses ? counted : report
      headers[id] = (renderer.header(id, of: source, expanded: true), renderer.header(id, of: source, expanded: false))
      if id != .expenses { bodies[id] = renderer.body(id, of: report) }
    }
    let list = ExpenseListRenderer(width: max(1, width - 2), glyphs: settings.glyphs)
    let laidOut = list.rows(rowIndices.map { expenses[$0] })
    rows = laidOut.rows
    var expensesBody = [renderer.divider]
    if expenses.isEmpty {
      expensesBody.append("No expenses this month.")
    } else if rowIndices.isEmpty {
      expensesBody.append(DisplayWidth.truncate("No expense matches the filter.", to: width, ellipsis: "..."))
    }
    expensesBody += laidOut.header.map { "  " + $0 }
    bodies[.expenses] = expensesBody
    rowPosition = Dictionary(uniqueKeysWithValues: rowIndices.enumerated().map { ($0.element, $0.offset) })
  }
}

/// The `/` filter: an expense matches when every word of the filter appears, ignoring case, in
/// its description, category, account or date.
struct RowFilter {
  let words: [String]

  init(_ text: String) { words = text.lowercased().split(separator: " ").map(String.init) }

  func matches(in expenses: [Expense]) -> [Int] {
    guard !words.isEmpty else { return Array(expenses.indices) }
    return expenses.indices.filter { index in
      let expense = expenses[index]
      let text = [expense.description, expense.category ?? uncategorizedName, expense.account ?? "", "\(expense.date)"]
        .joined(separator: "\u{1F}").lowercased()
      return words.allSatisfy { text.contains($0) }
    }
  }
}

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
  /// The lines of every expense (one in a table, two as cards), without indicator, by index in
  /// the report's `expenses`. Laid out once for all rows, so the filter only picks among them
  /// (and the columns keep still while it is typed); empty until `layOutRows` (fitting 10,000
  /// rows is the one slow step, and a folded Expenses section never needs it).
  private(set) var rows: [[String]] = []
  /// The expenses that pass the filter, as indices into the report's `expenses`.
  var rowIndices: [Int]
  /// Whether the report is empty (title and hint only).
  var isEmpty: Bool
  private let report: BudgetReport
  private let renderer: TextRenderer
  private let width: Int
  private let glyphs: GlyphSet
  private var columnHeader: [String] = []
  private var search: RowFilter.Index?
  private var filter = ""

  /// The sections with a header, in print order.
  static let folded: [SectionID] = [.categoryPerformance, .goals, .accounts, .recurring, .tags, .expenses, .trends]

  init(report: BudgetReport, width: Int, settings: ScreenSettings, filter: String) {
    let options = RenderOptions(width: width, glyphs: settings.glyphs, color: settings.color)
    self.report = report
    renderer = TextRenderer(options: options)
    title = renderer.titleLines(report)
    isEmpty = TextRenderer.isEmpty(report)
    summary = isEmpty ? [] : renderer.summaryLines(report)
    headers = [:]
    bodies = [:]
    // Goals and accounts have a header only when there are some, as in the printed report.
    for id in ScreenContent.folded
    where !isEmpty && id != .expenses && (id != .goals || !report.goals.isEmpty)
      && (id != .accounts || !report.accounts.isEmpty) && (id != .recurring || !report.recurring.isEmpty)
      && (id != .tags || !report.tags.isEmpty)
    {
      headers[id] = (renderer.header(id, of: report, expanded: true), renderer.header(id, of: report, expanded: false))
      bodies[id] = renderer.body(id, of: report)
    }
    self.width = width
    glyphs = settings.glyphs
    rowIndices = []
    applyFilter(filter)
  }

  /// Lays the expense rows out (once per report and width).
  mutating func layOutRows() {
    guard rows.isEmpty, let expenses = report.expenses, !expenses.isEmpty else { return }
    let laidOut = ExpenseListRenderer(width: max(1, width - 2), glyphs: glyphs).rows(expenses)
    rows = laidOut.rows
    columnHeader = laidOut.header.map { "  " + $0 }
    applyFilter(filter)
  }

  /// Picks the rows that match `filter`; the expenses header counts them.
  mutating func applyFilter(_ filter: String) {
    let expenses = report.expenses ?? []
    self.filter = filter
    var matching = Array(expenses.indices)
    if !filter.isEmpty {
      if search == nil { search = RowFilter.Index(expenses) }
      matching = search!.matches(RowFilter(filter))
    }
    // Nothing to show until the rows are laid out (the section is folded until then).
    rowIndices = rows.isEmpty ? [] : matching
    guard !isEmpty else { return }
    var counted = report
    if matching.count != expenses.count { counted.expenseCount = matching.count }
    headers[.expenses] = (
      renderer.header(.expenses, of: counted, expanded: true), renderer.header(.expenses, of: counted, expanded: false)
    )
    var body = [renderer.divider]
    if expenses.isEmpty {
      body.append("No expenses this month.")
    } else if matching.isEmpty {
      body.append("No expense matches the filter.")
    }
    bodies[.expenses] = body + (matching.isEmpty ? [] : columnHeader)
  }
}

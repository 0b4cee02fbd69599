import ExpenseCore
import ExpenseRender
import ExpenseStore

/// The report in any format, as every front end prints or serves it: resolves the month and
/// the section states (saved preferences, this request's `expand`/`collapse`, accordion mode,
/// the width class), loads what the sections need and renders.
public struct ReportService {
  public var store: any LedgerStore
  /// Whose section states the report folds by.
  public var user: String

  public init(store: any LedgerStore, user: String = DirectoryName.localUser) {
    self.store = store
    self.user = user
  }

  /// The section states a request renders with. A terminal report's states depend on its width
  /// class (category-performance folds only in compact width); other formats resolve as if
  /// every section were collapsible, which is what is saved.
  public func sectionStates(for request: ReportRequest) throws -> SectionStates {
    let windowSize = request.format.isTerminal ? WindowSize(width: request.width) : .compact
    let sections = SectionService(store: store, user: user)
    return try sections.resolve(expand: request.expand, collapse: request.collapse, windowSize: windowSize)
  }

  /// The report's numbers (and, where the format or the expanded sections need them, its
  /// expense rows and trends) for a request.
  public func report(for request: ReportRequest) throws -> (BudgetReport, SectionStates) {
    try report(for: request, streamingExpenses: false)
  }

  /// `report(for:)`, leaving the expense rows out when the caller streams them itself; `then`
  /// runs in the same consistent read as the report's (see `LedgerStore.consistently`), so
  /// rows it streams are those the report counted.
  func report<T>(
    for request: ReportRequest, streamingExpenses: Bool,
    then: (BudgetReport, SectionStates) throws -> T = { report, states in (report, states) }
  ) throws -> T {
    let month = request.month ?? request.today.calendarMonth
    let states = try sectionStates(for: request)
    if request.save && !(request.expand.isEmpty && request.collapse.isEmpty) {
      try SectionService(store: store, user: user).change(expand: request.expand, collapse: request.collapse)
    }
    var include: Set<SectionID> =
      request.format.isTerminal ? Set(SectionID.allCases.filter { states.isExpanded($0) }) : Set(SectionID.allCases)
    if streamingExpenses { include.remove(.expenses) }
    return try store.consistently {
      let report = try ReportLoader(store: store).report(
        month: month, today: request.today, including: include,
        explainCategories: request.format.isTerminal && request.details, trendMonths: request.trendMonths)
      return try then(report, states)
    }
  }

  /// The rendered report, ending with a line break.
  public func render(_ request: ReportRequest) throws -> String {
    guard request.width >= 20 || !request.format.isTerminal else { throw ServiceError.widthTooSmall(request.width) }
    if request.format == .json { return try renderJSON(request) }
    let (report, sections) = try report(for: request)
    var text: String
    switch request.format {
    case .json: text = JSONRenderer(sections: sections).render(report)  // not reached: `renderJSON` above
    case .csv: text = CSVRenderer(sections: sections).render(report)
    case .md: text = MarkdownRenderer(sections: sections).render(report)
    case .html:
      text = HTMLRenderer(sections: sections, script: request.pageScript, links: request.pageLinks).render(report)
    case .text:
      let options = RenderOptions(
        width: request.width, glyphs: request.glyphs, plain: request.plain, color: request.color,
        details: request.details, sections: sections)
      text = TextRenderer(options: options).render(report)
    }
    if text.utf8.last != UInt8(ascii: "\n") { text += "\n" }  // a CSV ends in one "\r\n" Character
    return text
  }

  /// Writes the rendered report into `out`. A JSON report's expense rows go out as they are
  /// read (`ExpenseJSONStream`), the rest of the document around them, so a month of many
  /// rows costs no `Expense` or encoder work per row and no memory per row; the bytes are
  /// `render`'s. Other formats are rendered whole and appended.
  public func write(_ request: ReportRequest, into out: inout OutputBuffer) throws {
    guard request.format == .json else {
      out.append(try render(request))
      return
    }
    let month = request.month ?? request.today.calendarMonth
    try report(for: request, streamingExpenses: true) { report, sections in
      guard let parts = JSONRenderer(sections: sections).renderAround(report) else {
        out.append("{}\n" as StaticString)  // what `JSONRenderer.render` prints when it cannot encode
        return
      }
      out.append(parts.head)
      var json = ExpenseJSONStream(depth: 1)
      json.transferPartners = try ExpenseService.transferPartners(store)
      try store.withExpenseSnapshot { snapshot in
        try snapshot.forEachExpense(ExpenseQuery(month: month, order: .newestFirst)) { row in
          json.write(row, into: &out)
          try out.endRow()
        }
      }
      json.finish(into: &out)
      out.append(parts.tail)
    }
  }

  /// The JSON report as one string, written by `write` into memory: the API and `demo` serve
  /// the same bytes as `report --format json` prints.
  private func renderJSON(_ request: ReportRequest) throws -> String {
    let sink = MemorySink()
    var out = OutputBuffer(drain: { sink.bytes.append(contentsOf: $0) })
    try write(request, into: &out)
    try out.flush()
    return String(decoding: sink.bytes, as: UTF8.self)
  }
}

/// Bytes collected in memory, for an `OutputBuffer` whose text is wanted as a `String`.
private final class MemorySink {
  var bytes: [UInt8] = []
}

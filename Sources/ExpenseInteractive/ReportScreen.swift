import ExpenseCore
import ExpenseRender

/// The interactive report as a pure state machine: keys and sizes in, frames of text and
/// effects (save, load a month, quit) out. No terminal, database or clock: the driver owns
/// those, and the tests drive this type directly.
public struct ReportScreen {
  /// Where keys go: the report, the `/` filter being typed, or the keys help.
  public enum Mode: Equatable, Sendable {
    case browse
    /// Typing a filter; `previous` comes back on Escape.
    case filter(previous: String)
    case help
    /// Typing the category of row `row` (by index in the report's expenses).
    case category(row: Int, text: String)
    /// Asking whether to add a rule beside the row's new category.
    case confirmRule(row: Int, category: String, pattern: String, moreRows: Int)
  }

  /// The smallest screen the report is drawn on; below it a message asks for more room.
  public static let minimumWidth = 20
  public static let minimumHeight = 5
  /// Frames of the reveal when a section opens (at 50 ms each, about 0.2 s), as the share of
  /// the body shown: an ease-out.
  static let revealSteps: [Double] = [0.3, 0.6, 0.85, 1.0]

  public internal(set) var report: BudgetReport
  public internal(set) var width: Int
  public internal(set) var height: Int
  public let settings: ScreenSettings
  /// Section states as saved: the chevrons at compact width. A section that is not collapsible
  /// at the current width shows regardless, and its saved state is left alone.
  public internal(set) var preferences: SectionStates
  public internal(set) var accordion: Bool
  public internal(set) var cursor: ScreenItem?
  /// The first content line on screen.
  public internal(set) var scroll = 0
  /// Expanded expense rows, by index in the report's `expenses`.
  public internal(set) var expandedRows: Set<Int> = []
  public internal(set) var filter = ""
  /// Whether `/` searches every month (Tab while typing): Enter asks the driver for the rows
  /// (`ScreenEffect.search`) instead of filtering the month's.
  public internal(set) var searchAllMonths = false
  /// The text of the all-months search whose rows the Expenses section shows, and the month's
  /// report Escape goes back to; nil when it shows the month's rows.
  public internal(set) var searchShown: String?
  var monthReport: BudgetReport?
  public internal(set) var mode = Mode.browse
  /// A one-key notice on the status line ("always shown at this width").
  public internal(set) var message: String?
  /// The animation is turned off for good when the terminal proves slow.
  public var animates: Bool
  /// The ledger's category names, which `f` completes over (set by the driver).
  public var categoryNames: [String] = []

  var content: ScreenContent?
  var layout = ScreenLayout()
  var reveal: (section: SectionID, step: Int)?
  var detailCache: [Int: [String]] = [:]

  public init(
    report: BudgetReport, width: Int, height: Int, preferences: SectionStates, accordion: Bool,
    settings: ScreenSettings
  ) {
    self.report = report
    self.width = width
    self.height = height
    self.preferences = preferences
    self.accordion = accordion
    self.settings = settings
    self.animates = settings.animation
    rebuildContent()
    cursor = layout.items.first
  }

  /// The width class the screen is laid out in.
  public var windowSize: WindowSize { WindowSize(width: width) }

  /// Whether the window is below 20 columns or 5 rows.
  public var isTooSmall: Bool { width < ReportScreen.minimumWidth || height < ReportScreen.minimumHeight }

  /// Lines of report above the status line.
  var bodyHeight: Int { max(1, height - 1) }

  /// Whether `id` shows its body: not collapsible at this width, or unfolded.
  public func isOpen(_ id: SectionID) -> Bool { !id.isCollapsible(windowSize) || preferences.isExpanded(id) }

  /// Whether a section reveal is running (the driver draws a frame every 50 ms until it ends).
  public var isRevealing: Bool { reveal != nil }

  /// The items the cursor can rest on, in screen order.
  public var items: [ScreenItem] { layout.items }

  // MARK: Outside events

  /// Lays the screen out for a new size (SIGWINCH), keeping the cursor's item where it was on
  /// screen when it can.
  public mutating func resize(width: Int, height: Int) {
    guard width != self.width || height != self.height else { return }
    let offset = cursorOffset
    let widthChanged = width != self.width
    self.width = width
    self.height = height
    reveal = nil
    if widthChanged {
      detailCache = [:]
      rebuildContent()
    } else {
      rebuildLayout()
    }
    anchor(offset)
  }

  /// Shows another month's report (after a `loadMonth` effect): rows fold, the filter stays.
  public mutating func replaceReport(_ report: BudgetReport) {
    searchShown = nil
    monthReport = nil
    show(report)
    message = report.month.longName
  }

  /// Shows the rows of an all-months search for `text` in the Expenses section (the month's
  /// summary and sections stay); Escape goes back to the month's rows. `total` is how many rows
  /// matched, of which `results` are the newest.
  public mutating func showSearch(_ text: String, results: [Expense], total: Int) {
    let month = monthReport ?? report
    var found = month
    found.expenses = results
    found.expenseCount = results.count
    monthReport = month
    searchShown = text
    show(found)
    if !isOpen(.expenses) {
      let wasAnimating = animates
      animates = false
      _ = setSection(.expenses, open: true)
      animates = wasAnimating
    }
    if let header = layout.range(of: .header(.expenses)) {
      cursor = .header(.expenses)
      scroll = header.lowerBound
      clampScroll()
      ensureCursorVisible()
    }
    let rows = total == 1 ? "1 row" : "\(total) rows"
    let shown = results.count < total ? ", newest \(results.count) shown" : ""
    message = "\"\(TerminalText.sanitize(text))\" in all months: \(rows)\(shown) \(glyphs.separator) Esc back"
  }

  /// The month's rows again after an all-months search.
  mutating func leaveSearch() {
    guard let month = monthReport else { return }
    searchShown = nil
    monthReport = nil
    show(month)
    message = month.month.longName
  }

  private mutating func show(_ report: BudgetReport) {
    self.report = report
    expandedRows = []
    detailCache = [:]
    reveal = nil
    rebuildContent()
    if case .row = cursor { cursor = .header(.expenses) }
    if let cursor, layout.index(of: cursor) == nil { self.cursor = layout.items.first }
    scroll = 0
    ensureCursorVisible()
  }

  /// Shows the month's report again after a change (a row filed, an undo), keeping the cursor
  /// and the screen where they were as far as the new report allows, and says what changed.
  public mutating func refreshReport(_ report: BudgetReport, notice: String) {
    let offset = cursorOffset
    let kept = cursor
    self.report = report
    let count = report.expenses?.count ?? 0
    expandedRows = expandedRows.filter { $0 < count }
    detailCache = [:]
    reveal = nil
    mode = .browse
    rebuildContent()
    if let kept, layout.index(of: kept) != nil { cursor = kept }
    anchor(offset)
    message = TerminalText.sanitize(notice)
  }

  /// Shows `text` on the status line until the next key (a save that failed, say).
  public mutating func notify(_ text: String) { message = TerminalText.sanitize(text) }

  /// Moves the reveal on by one frame.
  public mutating func advanceReveal() {
    guard let current = reveal else { return }
    reveal = current.step + 1 < ReportScreen.revealSteps.count ? (current.section, current.step + 1) : nil
    rebuildLayout()
  }

  /// Ends the reveal at once (a key came in, or the terminal is slow).
  public mutating func finishReveal() {
    guard reveal != nil else { return }
    reveal = nil
    rebuildLayout()
  }

  // MARK: Layout

  mutating func rebuildContent() {
    guard !isTooSmall else {
      content = nil
      layout = ScreenLayout()
      return
    }
    content = ScreenContent(report: report, width: width, settings: settings, filter: filter)
    rebuildLayout()
  }

  mutating func rebuildLayout() {
    guard content != nil else {
      if !isTooSmall { rebuildContent() }
      return
    }
    if isOpen(.expenses) { content!.layOutRows() }
    let content = content!
    var revealLines: (section: SectionID, lines: Int)? = nil
    if let reveal {
      let full = bodyLineCount(reveal.section, content)
      let shown = Int((Double(min(full, bodyHeight)) * ReportScreen.revealSteps[reveal.step]).rounded(.up))
      revealLines = (reveal.section, reveal.step == ReportScreen.revealSteps.count - 1 ? Int.max : max(1, shown))
    }
    var detailCounts: [Int: Int] = [:]
    for index in expandedRows { detailCounts[index] = details(for: index).count }
    var open: [SectionID: Bool] = [:]
    for id in SectionID.allCases { open[id] = isOpen(id) }
    layout = ScreenLayout(
      content: content, rowCapacity: report.expenses?.count ?? 0, isOpen: { open[$0] ?? false },
      rowCount: { index in
        content.rows[index].count + (detailCounts[index] ?? 0)
      },
      reveal: revealLines)
    if let cursor, layout.index(of: cursor) == nil {
      self.cursor = cursor.section == .expenses ? .header(.expenses) : layout.items.first
    }
    if cursor == nil { cursor = layout.items.first }
  }

  /// Lines of a section's body before any row is expanded (counted no further than a screen).
  func bodyLineCount(_ id: SectionID, _ content: ScreenContent) -> Int {
    var lines = content.bodies[id]?.count ?? 0
    guard id == .expenses else { return lines }
    for index in content.rowIndices where lines < bodyHeight { lines += content.rows[index].count }
    return lines
  }

  /// The detail lines under an expanded row: date, full description, category, account and
  /// source file:line (or that it was added by hand).
  mutating func details(for index: Int) -> [String] {
    if let cached = detailCache[index] { return cached }
    guard let expense = report.expenses?[index] else { return [] }
    let indent = "    "
    let list = ExpenseListRenderer(width: width, glyphs: settings.glyphs)
    var lines = [indent + "Date: \(expense.date)"] + list.details(expense, indent: indent)
    if expense.source == nil { lines.append(indent + "Source: added by hand") }
    lines = lines.map { DisplayWidth.truncate($0, to: width, ellipsis: glyphs.ellipsis) }
    detailCache[index] = lines
    return lines
  }

  var glyphs: ScreenGlyphs { ScreenGlyphs(settings.glyphs) }

  // MARK: Cursor and scroll

  /// The cursor's line minus the scroll: where on screen it is.
  var cursorOffset: Int? { cursor.flatMap { layout.range(of: $0) }.map { $0.lowerBound - scroll } }

  /// Scrolls so the cursor sits `offset` lines from the top, within the content.
  mutating func anchor(_ offset: Int?) {
    if let offset, let cursor, let range = layout.range(of: cursor) {
      scroll = range.lowerBound - min(max(0, offset), bodyHeight - 1)
    }
    clampScroll()
    ensureCursorVisible()
  }

  /// The largest useful scroll: the last line can reach the top (so any section can open at
  /// the top of the screen, the seed's expand-and-scroll).
  var maxScroll: Int { max(0, layout.total - 1) }

  mutating func clampScroll() { scroll = max(0, min(scroll, maxScroll)) }

  /// Scrolls the least that puts the cursor's item on screen (its first line at least).
  mutating func ensureCursorVisible() {
    guard let cursor, let range = layout.range(of: cursor) else {
      clampScroll()
      return
    }
    if range.lowerBound < scroll {
      scroll = range.lowerBound
    } else if range.upperBound > scroll + bodyHeight {
      scroll = min(range.lowerBound, range.upperBound - bodyHeight)
    }
    clampScroll()
  }
}

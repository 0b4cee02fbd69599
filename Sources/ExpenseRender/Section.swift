import ExpenseCore

/// The report's sections, in the order they print (docs/sections-and-widths.md lists them).
public enum SectionID: String, CaseIterable, Sendable, Codable {
  /// Totals, what is left, status counts; never collapsible.
  case summary
  /// The per-category benchmark table or cards; collapsible only in compact width.
  case categoryPerformance = "category-performance"
  /// The month's transactions; always collapsible, collapsed by default.
  case expenses
  /// Six months of spending per category; always collapsible, collapsed by default.
  case trends
  /// Goals and what each needs this month; always collapsible, collapsed by default, and
  /// printed only when there are goals (`goal add`), right after Category Performance. Last
  /// here so that accordion mode's "first collapsible section" is the one it was before goals
  /// (Expenses, in regular width): a report without goals folds as it always did.
  case goals
  /// Each account against its bank (the balances its statements stated); always collapsible,
  /// collapsed by default, and printed only when a statement stated a balance, after Goals.
  /// Last here for the reason Goals is.
  case accounts
  /// The recurring payments found in the rows and what of them is still due this month;
  /// always collapsible, collapsed by default, and printed only when a series was found, after
  /// Accounts. Last here for the reason Goals is.
  case recurring
  /// The tags with rows this month or a budget reaching into it; always collapsible,
  /// collapsed by default, and printed only when there are some, after Recurring. Last here
  /// for the reason Goals is.
  case tags

  /// The title shown in headers.
  public var title: String {
    switch self {
    case .summary: return "Summary"
    case .categoryPerformance: return "Category Performance"
    case .goals: return "Goals"
    case .accounts: return "Accounts"
    case .recurring: return "Recurring"
    case .tags: return "Tags"
    case .expenses: return "Expenses"
    case .trends: return "Trends"
    }
  }

  /// Where the section can be collapsed, independent of any terminal.
  public var collapsibility: Collapsibility {
    switch self {
    case .summary: return .never
    case .categoryPerformance: return .compact
    case .goals, .accounts, .recurring, .tags, .expenses, .trends: return .always
    }
  }

  /// Whether the section has a chevron and can be collapsed at `size`.
  public func isCollapsible(_ size: WindowSize) -> Bool {
    switch collapsibility {
    case .never: return false
    case .compact: return size == .compact
    case .always: return true
    }
  }

  /// Whether the section is expanded by default.
  public var defaultExpanded: Bool { self == .summary || self == .categoryPerformance }
}

/// Where a section can be collapsed; the JSON `collapsibleIn` value.
public enum Collapsibility: String, Sendable, Codable {
  /// Never: always shown with a static header.
  case never
  /// Only in compact width; a static header in regular and wide.
  case compact
  /// At every width.
  case always
}

/// Which sections are expanded, resolved once from defaults, saved preferences and flags.
public struct SectionStates: Sendable, Equatable {
  private var expanded: [SectionID: Bool]

  /// Explicit states; sections not listed use their default.
  public init(expanded: [SectionID: Bool] = [:]) {
    var all: [SectionID: Bool] = [:]
    for id in SectionID.allCases { all[id] = expanded[id] ?? id.defaultExpanded }
    self.expanded = all
  }

  /// Defaults: summary and category-performance expanded, expenses and trends collapsed.
  public static let standard = SectionStates()

  /// Whether `id` is expanded. (Renderers additionally expand whatever is not collapsible at
  /// their width.)
  public func isExpanded(_ id: SectionID) -> Bool { expanded[id] ?? id.defaultExpanded }

  /// The ids `--expand`/`--collapse` accept.
  public static var validIDs: [String] { SectionID.allCases.map(\.rawValue) + ["all"] }

  /// Resolves the states, in this order:
  /// 1. defaults; 2. `saved` preferences; 3. `collapse` then `expand` (so `--collapse all
  /// --expand trends` leaves only trends open; `all` means every section collapsible at
  /// `windowSize`); 4. accordion mode's rule (`keepingOneOpen`), the last collapsible id given
  /// to `--expand` counting as the one opened; 5. a section not collapsible at `windowSize` is
  /// expanded.
  /// Ids are matched case-insensitively; an unknown id throws `RenderError.unknownSection`, and
  /// collapsing a section that never collapses (`summary`) `RenderError.notCollapsible`.
  public static func resolve(
    saved: [SectionID: Bool], expand: [String], collapse: [String], accordion: Bool, windowSize: WindowSize
  ) throws(RenderError) -> SectionStates {
    let collapsible = SectionID.allCases.filter { $0.isCollapsible(windowSize) }
    func ids(_ raw: String) throws(RenderError) -> [SectionID] {
      let key = raw.trimmingASCIIWhitespace().lowercased()
      if key == "all" { return collapsible }
      guard let id = SectionID(rawValue: key) else { throw .unknownSection(raw, valid: validIDs) }
      return [id]
    }
    var states = SectionStates()
    for (id, value) in saved { states.expanded[id] = value }
    var explicitlyExpanded: [SectionID] = []
    for raw in collapse {
      let named = try ids(raw)
      if named.count == 1, named[0].collapsibility == .never { throw .notCollapsible(named[0]) }
      for id in named where id.isCollapsible(windowSize) { states.expanded[id] = false }
    }
    for raw in expand {
      let named = try ids(raw)
      for id in named { states.expanded[id] = true }
      if named.count == 1 && raw.lowercased() != "all" { explicitlyExpanded += named }
    }
    if accordion {
      states =
        states.keepingOneOpen(opened: explicitlyExpanded.last(where: collapsible.contains), windowSize: windowSize)
        .states
    }
    for id in SectionID.allCases where !id.isCollapsible(windowSize) { states.expanded[id] = true }
    return states
  }

  /// Accordion mode's one rule, used by every front end (the printed report, `sections`, the
  /// server and `expenses browse`): of the sections collapsible at `windowSize`, exactly one
  /// stays open and the others close. The one kept is `opened`, the section the user has just
  /// opened (`--expand ID`, a key, a click), when it is collapsible; else the first open one in
  /// print order; else the first collapsible one. Returns the states and the section kept (nil
  /// when nothing folds at `windowSize`).
  public func keepingOneOpen(opened: SectionID?, windowSize: WindowSize) -> (states: SectionStates, kept: SectionID?) {
    let collapsible = SectionID.allCases.filter { $0.isCollapsible(windowSize) }
    let kept =
      opened.flatMap { collapsible.contains($0) ? $0 : nil } ?? collapsible.first(where: isExpanded)
      ?? collapsible.first
    guard let kept else { return (self, nil) }
    var states = self
    for id in collapsible { states.expanded[id] = id == kept }
    return (states, kept)
  }
}

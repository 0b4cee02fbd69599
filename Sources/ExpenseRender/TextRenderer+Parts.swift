import ExpenseCore

/// The printed report in pieces, for a front end that folds sections itself (the interactive
/// screen). Each piece is made by the same code that prints the report, so the screen and the
/// printed report cannot drift apart; only the order and the folding are left to the caller.
extension TextRenderer {
  /// True when the report has nothing but the "import a bank file" hint to show.
  public static func isEmpty(_ report: BudgetReport) -> Bool {
    report.groups.isEmpty && report.expenseCount == 0 && (report.expenses ?? []).isEmpty
  }

  /// The title line and its rule; for an empty report, followed by the hint that says what to do.
  public func titleLines(_ report: BudgetReport) -> [String] {
    let context = TextContext(options: options)
    var out = TextOutput(context: context)
    renderTitle(report, context, &out)
    if TextRenderer.isEmpty(report) {
      renderEmpty(report, context, &out)
    } else {
      renderNoDataNotice(report, context, &out)
    }
    return out.lines
  }

  /// The summary lines (totals, what is left, status counts, money in); it has no header.
  public func summaryLines(_ report: BudgetReport) -> [String] {
    let context = TextContext(options: options)
    var out = TextOutput(context: context)
    renderSummary(report, context, &out)
    return out.lines
  }

  /// The header line of a collapsible section as printed when `expanded` is as given:
  /// `▼ Category Performance (8 · 2 over)`, `▶ Expenses (142)`, or a static header where the
  /// section is not collapsible at this width. The expenses count is `report.expenseCount`.
  public func header(_ id: SectionID, of report: BudgetReport, expanded: Bool) -> String {
    var headerOnly = report
    headerOnly.expenses = nil  // the header needs the count, never the rows
    return sectionLines(id, of: headerOnly, expanded: expanded).first ?? ""
  }

  /// What prints under a section's header when it is expanded (its rule included). For the
  /// expenses section use `ExpenseListRenderer.rows(_:)`, which groups the lines per expense.
  public func body(_ id: SectionID, of report: BudgetReport) -> [String] {
    Array(sectionLines(id, of: report, expanded: true).dropFirst())
  }

  /// The rule under an expanded section's header.
  public var divider: String { TextContext(options: options).divider }

  func sectionLines(_ id: SectionID, of report: BudgetReport, expanded: Bool) -> [String] {
    var sectionOptions = options
    sectionOptions.plain = false  // one header line: the screen states the fold with its chevron
    var states: [SectionID: Bool] = [:]
    for other in SectionID.allCases { states[other] = options.sections.isExpanded(other) }
    states[id] = expanded
    sectionOptions.sections = SectionStates(expanded: states)
    let context = TextContext(options: sectionOptions)
    var out = TextOutput(context: context)
    switch id {
    case .summary: renderSummary(report, context, &out)
    case .categoryPerformance: renderCategorySection(report, context, &out)
    case .goals: renderGoalsSection(report, context, &out)
    case .accounts: renderAccountsSection(report, context, &out)
    case .recurring: renderRecurringSection(report, context, &out)
    case .tags: renderTagsSection(report, context, &out)
    case .expenses: renderExpensesSection(report, context, &out)
    case .trends: renderTrendsSection(report, context, &out)
    }
    return out.lines
  }
}

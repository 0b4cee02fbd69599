import Testing

@testable import ExpenseRender

@Suite("Section states")
struct SectionStatesTests {
  func resolve(
    saved: [SectionID: Bool] = [:], expand: [String] = [], collapse: [String] = [], accordion: Bool = false,
    _ size: WindowSize = .compact
  ) throws -> SectionStates {
    try SectionStates.resolve(saved: saved, expand: expand, collapse: collapse, accordion: accordion, windowSize: size)
  }

  func expanded(_ states: SectionStates) -> [SectionID] { SectionID.allCases.filter { states.isExpanded($0) } }

  @Test func defaults() throws {
    #expect(expanded(try resolve()) == [.summary, .categoryPerformance])
    #expect(SectionStates.standard == (try resolve()))
  }

  @Test func savedPreferencesApply() throws {
    let states = try resolve(saved: [.trends: true, .categoryPerformance: false])
    #expect(expanded(states) == [.summary, .trends])
  }

  @Test func overridesBeatSavedAndExpandBeatsCollapse() throws {
    let states = try resolve(saved: [.trends: true], expand: ["expenses"], collapse: ["trends"])
    #expect(expanded(states) == [.summary, .categoryPerformance, .expenses])
    let both = try resolve(expand: ["trends"], collapse: ["all"])
    #expect(expanded(both) == [.summary, .trends])
  }

  @Test func allMeansEveryCollapsibleSection() throws {
    #expect(expanded(try resolve(expand: ["all"])) == SectionID.allCases)
    // Summary is never collapsible, so `--collapse all` leaves it.
    #expect(expanded(try resolve(collapse: ["all"])) == [.summary])
    // In regular width category performance is not collapsible: it stays expanded.
    #expect(expanded(try resolve(collapse: ["all"], .regular)) == [.summary, .categoryPerformance])
  }

  @Test func idsAreCaseInsensitive() throws {
    #expect(expanded(try resolve(expand: ["Trends"])).contains(.trends))
  }

  @Test func accordionKeepsOneCollapsibleSection() throws {
    // Default compact: category-performance is the first collapsible section and expanded.
    #expect(expanded(try resolve(accordion: true)) == [.summary, .categoryPerformance])
    // An explicit --expand wins over everything already open.
    #expect(expanded(try resolve(expand: ["trends"], accordion: true)) == [.summary, .trends])
    #expect(expanded(try resolve(expand: ["trends", "expenses"], accordion: true)) == [.summary, .expenses])
    // Nothing open: the first collapsible section opens.
    #expect(expanded(try resolve(collapse: ["all"], accordion: true)) == [.summary, .categoryPerformance])
    // Regular: category-performance is static and stays; the accordion covers expenses/trends.
    #expect(
      expanded(try resolve(saved: [.expenses: true, .trends: true], accordion: true, .regular))
        == [.summary, .categoryPerformance, .expenses])
    #expect(
      expanded(try resolve(accordion: true, .wide)) == [.summary, .categoryPerformance, .expenses])
  }

  @Test func widthDecidesCollapsibility() throws {
    #expect(!SectionID.summary.isCollapsible(.compact))
    #expect(SectionID.categoryPerformance.isCollapsible(.compact))
    #expect(!SectionID.categoryPerformance.isCollapsible(.regular))
    #expect(!SectionID.categoryPerformance.isCollapsible(.wide))
    #expect(SectionID.expenses.isCollapsible(.wide) && SectionID.trends.isCollapsible(.regular))
    let states = try resolve(saved: [.categoryPerformance: false], .regular)
    #expect(states.isExpanded(.categoryPerformance))
    #expect(!(try resolve(saved: [.categoryPerformance: false], .compact)).isExpanded(.categoryPerformance))
  }

  @Test func unknownIDIsAnErrorListingValidIDs() {
    #expect(throws: RenderError.unknownSection("budgets", valid: SectionStates.validIDs)) {
      try resolve(expand: ["budgets"])
    }
    let error = RenderError.unknownSection("budgets", valid: SectionStates.validIDs)
    #expect(
      error.description
        == "unknown section 'budgets': valid sections are summary, category-performance, expenses, trends, goals, accounts, recurring, tags, all"
    )
    #expect(throws: RenderError.self) { try resolve(collapse: ["\u{1B}[2J"]) }
    #expect(!RenderError.unknownSection("\u{1B}[2J", valid: []).description.contains("\u{1B}"))
  }

  @Test func windowSizeBreakpoints() {
    #expect(WindowSize(width: 20) == .compact)
    #expect(WindowSize(width: 59) == .compact)
    #expect(WindowSize(width: 60) == .regular)
    #expect(WindowSize(width: 99) == .regular)
    #expect(WindowSize(width: 100) == .wide)
    #expect(WindowSize(width: 0) == .compact)
  }

  @Test func sectionTitles() {
    #expect(
      SectionID.allCases.map(\.title) == [
        "Summary", "Category Performance", "Expenses", "Trends", "Goals", "Accounts", "Recurring", "Tags",
      ])
    #expect(
      SectionID.allCases.map(\.rawValue) == [
        "summary", "category-performance", "expenses", "trends", "goals", "accounts", "recurring", "tags",
      ])
  }
}

/// Accordion mode's one rule, as every front end applies it.
@Suite struct AccordionRuleTests {
  func open(_ states: SectionStates) -> [SectionID] { SectionID.allCases.filter { states.isExpanded($0) } }

  @Test func theSectionJustOpenedIsKept() {
    let all = SectionStates(expanded: [.categoryPerformance: true, .expenses: true, .trends: true])
    let kept = all.keepingOneOpen(opened: .trends, windowSize: .compact)
    #expect(kept.kept == .trends && open(kept.states) == [.summary, .trends])
    // Opened but not collapsible at this width: the rule falls back to print order.
    let regular = all.keepingOneOpen(opened: .categoryPerformance, windowSize: .regular)
    #expect(regular.kept == .expenses && open(regular.states) == [.summary, .categoryPerformance, .expenses])
  }

  @Test func withNothingJustOpenedTheFirstOpenInPrintOrderIsKept() {
    let two = SectionStates(expanded: [.categoryPerformance: false, .expenses: true, .trends: true])
    #expect(two.keepingOneOpen(opened: nil, windowSize: .compact).kept == .expenses)
    let none = SectionStates(expanded: [.categoryPerformance: false])
    let first = none.keepingOneOpen(opened: nil, windowSize: .compact)
    #expect(first.kept == .categoryPerformance && open(first.states) == [.summary, .categoryPerformance])
    #expect(none.keepingOneOpen(opened: nil, windowSize: .regular).kept == .expenses)
  }

  @Test func resolveFollowsTheRule() throws {
    for mask in 0..<8 {
      let saved: [SectionID: Bool] = [
        .categoryPerformance: mask & 1 != 0, .expenses: mask & 2 != 0, .trends: mask & 4 != 0,
      ]
      for size in [WindowSize.compact, .regular, .wide] {
        let resolved = try SectionStates.resolve(
          saved: saved, expand: [], collapse: [], accordion: true, windowSize: size)
        let rule = SectionStates(expanded: saved).keepingOneOpen(opened: nil, windowSize: size).states
        for id in SectionID.allCases where id.isCollapsible(size) {
          #expect(resolved.isExpanded(id) == rule.isExpanded(id))
        }
        let collapsible = SectionID.allCases.filter { $0.isCollapsible(size) }
        #expect(collapsible.filter { resolved.isExpanded($0) }.count == 1, "exactly one open: \(saved) \(size)")
      }
    }
  }
}

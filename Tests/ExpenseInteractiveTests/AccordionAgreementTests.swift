import ExpenseCore
import ExpenseRender
import Testing

@testable import ExpenseInteractive

/// Accordion mode has one rule (`SectionStates.keepingOneOpen`): the screen of `expenses browse`
/// and the printed report (`SectionStates.resolve`, which `sections`, `report` and the server
/// use) keep the same section open, from every saved state, at every width, wherever the
/// cursor is.
@Suite struct AccordionAgreementTests {
  /// Every combination of the three collapsible sections' saved states.
  static let saved: [[SectionID: Bool]] = (0..<8).map { mask in
    [.categoryPerformance: mask & 1 != 0, .expenses: mask & 2 != 0, .trends: mask & 4 != 0]
  }

  func report(_ saved: [SectionID: Bool], expand: [String] = [], width: Int) throws -> SectionStates {
    try SectionStates.resolve(
      saved: saved, expand: expand, collapse: [], accordion: true, windowSize: WindowSize(width: width))
  }

  @Test(arguments: [50, 80, 120])
  func turningAccordionOnKeepsWhatTheReportKeeps(width: Int) throws {
    for saved in Self.saved {
      let printed = try report(saved, width: width)
      // The cursor where it starts and on the last header: neither changes which section stays.
      for cursor in [nil, ScreenItem.header(.trends)] {
        var screen = ScreenFixture.screen(width: width, height: 40, preferences: SectionStates(expanded: saved))
        if let cursor { screen.moveTo(cursor) }
        screen.press(.character("a"))
        for id in SectionID.allCases {
          #expect(
            screen.isOpen(id) == printed.isExpanded(id),
            "width \(width), saved \(saved), cursor \(cursor.debugDescription): \(id)")
        }
      }
    }
  }

  @Test(arguments: [50, 80, 120])
  func openingASectionKeepsWhatExpandKeeps(width: Int) throws {
    for saved in Self.saved {
      // Goals, accounts, recurring and tags have no header in a report without them (the fixture's):
      // nothing to open.
      for id in SectionID.allCases
      where id.isCollapsible(WindowSize(width: width)) && id != .goals && id != .accounts && id != .recurring
        && id != .tags
      {
        let printed = try report(saved, expand: [id.rawValue], width: width)
        // The screen starts as the report resolved the saved states, as `browse` loads them.
        var screen = ScreenFixture.screen(
          width: width, height: 40, accordion: true, preferences: try report(saved, width: width))
        screen.moveTo(.header(id))
        screen.press(.right)
        for other in SectionID.allCases {
          #expect(
            screen.isOpen(other) == printed.isExpanded(other), "width \(width), saved \(saved), opened \(id): \(other)")
        }
      }
    }
  }
}

import ExpenseCore
import ExpenseRender
import TestSupport
import Testing

@testable import ExpenseInteractive

@Suite("Report screen")
struct ReportScreenTests {
  @Test func firstFrameShowsTheReportWithChevronsAndTheStatusLine() {
    var screen = ScreenFixture.screen(height: 60)
    let frame = screen.frame()
    #expect(frame.lines.count == 60)
    #expect(frame.lines[0].hasPrefix("October 2026"))
    #expect(frame.lines.contains { $0.hasPrefix("▼ Category Performance (6 · 1 over)") })
    #expect(frame.lines.contains("▶ Expenses (40)"))
    #expect(frame.lines.contains { $0.hasPrefix("▶ Trends") })
    #expect(frame.cursorLine?.hasPrefix("▼ Category Performance") == true, "the cursor starts on the first header")
    #expect(frame.lines.last?.hasPrefix("? keys · q quit") == true)
    #expect(frame.lines.last?.hasSuffix("Oct 2026") == true)
  }

  @Test func openingASectionScrollsItToTheTopAndSavesIt() throws {
    var screen = ScreenFixture.screen()
    screen.moveTo(.header(.expenses))
    let effects = screen.press(.enter)
    let frame = screen.frame()
    #expect(frame.lines[0] == "▼ Expenses (40)", "expand-and-scroll: the opened header is the top line")
    #expect(frame.highlighted == 0)
    #expect(frame.lines[2].contains("Description") && frame.lines[2].contains("Amount"))
    #expect(frame.lines[3].hasPrefix("▸ Oct 20"))
    guard case .saveSections(let saved) = try #require(effects.first) else {
      Issue.record("expected a save, got \(effects)")
      return
    }
    #expect(saved.isExpanded(.expenses))
    #expect(saved.isExpanded(.categoryPerformance))
    #expect(!saved.isExpanded(.trends))
    // Folding it again is saved too, and the cursor's header stays on screen.
    #expect(screen.press(.enter) == [.saveSections(SectionStates(expanded: [.expenses: false]))])
    #expect(screen.frame().cursorLine == "▶ Expenses (40)")
  }

  @Test func accordionModeClosesTheOthersAtTheWidthsWhereTheyFold() {
    var compact = ScreenFixture.screen(accordion: true)
    compact.moveTo(.header(.expenses))
    let effects = compact.press(.enter)
    #expect(!compact.isOpen(.categoryPerformance) && compact.isOpen(.expenses) && !compact.isOpen(.trends))
    #expect(effects == [.saveSections(SectionStates(expanded: [.categoryPerformance: false, .expenses: true]))])
    compact.moveTo(.header(.trends))
    compact.press(.enter)
    #expect(!compact.isOpen(.expenses) && compact.isOpen(.trends))
    #expect(compact.frame().lines[0].hasPrefix("▼ Trends"))

    // Regular width: category performance is not collapsible, so it stays open and unsaved.
    var regular = ScreenFixture.screen(width: 80, accordion: true)
    regular.moveTo(.header(.expenses))
    #expect(regular.press(.enter) == [.saveSections(SectionStates(expanded: [.expenses: true]))])
    #expect(regular.isOpen(.categoryPerformance))
  }

  @Test func aToggleOfAccordionModeLeavesOneSectionOpenAndSavesBoth() {
    var screen = ScreenFixture.screen()
    screen.press(.character("e"))
    #expect(screen.isOpen(.expenses) && screen.isOpen(.trends) && screen.isOpen(.categoryPerformance))
    let effects = screen.press(.character("a"))
    #expect(effects.first == .saveAccordion(true))
    #expect(effects.contains(.saveSections(SectionStates(expanded: [.expenses: false, .trends: false]))))
    #expect(screen.frame().lines.last?.hasPrefix("accordion on") == true)
    #expect(screen.press(.character("a")) == [.saveAccordion(false)])
  }

  @Test func aRowExpandsInPlaceWithItsDetails() {
    var screen = ScreenFixture.screen(height: 24)
    screen.moveTo(.header(.expenses))
    screen.press(.enter, .down)
    guard case .row(let index) = screen.cursor else {
      Issue.record("cursor on \(String(describing: screen.cursor))")
      return
    }
    let expense = screen.report.expenses![index]
    #expect(screen.press(.enter) == [], "a row's details are not a saved preference")
    let frame = screen.frame()
    let line = frame.highlighted!
    #expect(frame.lines[line].hasPrefix("▾ Oct 20"))
    #expect(frame.lines[line + 1] == "    Date: 2026-10-20")
    #expect(frame.lines[line + 2] == "    " + expense.description)
    #expect(frame.lines[line + 3] == "    Category: " + expense.category!)
    #expect(frame.lines[(line + 4)...].contains("    Source: bank.csv:\(expense.source!.line)"))
    #expect(frame.lines.last?.contains("1/40") == true, "the status line says which row")
    screen.press(.left)
    #expect(screen.frame().cursorLine?.hasPrefix("▸ Oct 20") == true, "Left folds the row first")
    screen.press(.left)
    #expect(screen.cursor == .header(.expenses), "then goes up to its section")
  }

  @Test func aRowAddedByHandSaysSo() {
    var screen = ScreenFixture.screen(height: 40)
    screen.moveTo(.header(.expenses))
    screen.press(.enter)
    let handIndex = screen.report.expenses!.firstIndex { $0.source == nil }!
    screen.moveTo(.row(handIndex))
    screen.press(.right)
    #expect(screen.text().contains("    Source: added by hand"))
  }

  @Test func theCursorRowStaysOnScreenWhateverTheKeys() {
    var random = SeededRandom(state: 7)
    let keys: [Key] = [
      .down, .down, .down, .up, .enter, .pageDown, .pageUp, .end, .home, .character("j"), .character("G"),
      .character("g"), .right, .left, .character("e"), .character("c"), .character("a"),
    ]
    for size in [(20, 5), (40, 8), (50, 20), (80, 12), (120, 30)] {
      var screen = ScreenFixture.screen(ScreenFixture.report(rows: 120), width: size.0, height: size.1)
      for _ in 0..<400 {
        screen.press(keys[Int(random.next() % UInt64(keys.count))])
        let frame = screen.frame()
        #expect(frame.highlighted != nil, "cursor \(String(describing: screen.cursor)) off screen at \(size)")
        #expect(frame.lines.count == size.1)
      }
    }
  }

  @Test func pagesAndEnds() {
    var screen = ScreenFixture.screen(ScreenFixture.report(rows: 200), height: 12)
    screen.moveTo(.header(.expenses))
    screen.press(.enter, .character("G"))
    let last = screen.frame()
    #expect(screen.cursor == screen.items.last)
    #expect(last.highlighted == 10, "the last row sits on the last report line, above the status line")
    screen.press(.pageUp)
    let up = screen.frame()
    #expect(up.highlighted != nil)
    // A page is 10 lines: the last item is the Trends header, a blank line below the last row.
    #expect(screen.items.firstIndex(of: screen.cursor!)! == screen.items.count - 10)
    screen.press(.home)
    #expect(screen.cursor == .header(.categoryPerformance))
    #expect(screen.frame().lines[0].hasPrefix("October 2026"))
    screen.press(.pageDown)
    #expect(screen.frame().lines[0] != "October 2026 budget", "PgDn moves the screen")
  }

  @Test func expandAllAndCollapseAll() {
    var screen = ScreenFixture.screen()
    #expect(
      screen.press(.character("e")) == [
        .saveSections(
          SectionStates(
            expanded: [
              .categoryPerformance: true, .expenses: true, .trends: true, .goals: true, .accounts: true,
              .recurring: true, .tags: true,
            ]))
      ])
    screen.moveTo(.row(0))
    #expect(
      screen.press(.character("c")) == [
        .saveSections(
          SectionStates(
            expanded: [.categoryPerformance: false, .expenses: false, .trends: false, .goals: false, .accounts: false]))
      ])
    #expect(screen.cursor == .header(.expenses), "a folded section's row gives the cursor to its header")
  }
}

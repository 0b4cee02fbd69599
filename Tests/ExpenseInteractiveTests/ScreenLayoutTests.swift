import ExpenseCore
import ExpenseRender
import Testing

@testable import ExpenseInteractive

@Suite("Report screen: sizes, filter, months, mouse, reveal")
struct ScreenLayoutTests {
  /// Every key that changes what is drawn, so each width is checked with every section open,
  /// a row expanded, the help and a filter.
  @Test func noLineIsWiderThanTheScreenAtAnyWidthFrom20To200() {
    let long = ScreenFixture.report(rows: 30) { index in
      index == 3 ? String(repeating: "Très long libellé 🇩🇪 麺 ", count: 12) : "Row \(index) Café"
    }
    for glyphs in [GlyphSet.unicode, .ascii] {
      for width in 20...200 {
        for height in [5, 17] {
          var screen = ScreenFixture.screen(long, width: width, height: height, glyphs: glyphs, color: width % 2 == 0)
          var frames = [screen.frame()]
          screen.press(.character("e"))
          screen.moveTo(.row(3))
          screen.press(.enter)
          frames.append(screen.frame())
          screen.press(.character("G"))
          frames.append(screen.frame())
          screen.press(.character("?"))
          frames.append(screen.frame())
          screen.press(.escape, .character("/"), .character("c"), .character("a"))
          frames.append(screen.frame())
          for frame in frames {
            #expect(frame.lines.count == height)
            for line in frame.lines where DisplayWidth.of(line) > width {
              Issue.record("\(DisplayWidth.of(line)) cells at width \(width): \(line)")
            }
            for line in frame.styled(color: true) where DisplayWidth.of(line) > width {
              Issue.record("styled line of \(DisplayWidth.of(line)) cells at width \(width)")
            }
          }
        }
      }
    }
  }

  @Test func resizingAcrossABreakpointChangesTheLayoutAndKeepsTheSavedStates() {
    var screen = ScreenFixture.screen(width: 50, height: 40)
    screen.press(.enter)  // fold category performance (compact: collapsible)
    #expect(!screen.isOpen(.categoryPerformance))
    #expect(screen.text().contains("▶ Category Performance (6 · 1 over)"))

    screen.resize(width: 80, height: 40)
    #expect(screen.windowSize == .regular)
    #expect(screen.isOpen(.categoryPerformance), "regular width: the table always shows")
    let regular = screen.text()
    #expect(regular.contains("Category Performance vs Budget (6 · 1 over)"))
    #expect(!regular.contains("▼ Category") && !regular.contains("▶ Category"))
    #expect(regular.contains("Category") && regular.contains("Spent") && regular.contains("Budget"))
    #expect(screen.press(.enter) == [], "a static header does not fold")
    #expect(screen.frame().lines.last?.hasPrefix("Category Performance is always shown") == true)

    screen.resize(width: 120, height: 40)
    #expect(screen.windowSize == .wide)
    #expect(screen.text().contains("3-mo avg") || screen.text().contains("Pace"), "wide adds columns")

    screen.resize(width: 45, height: 40)
    #expect(screen.text().contains("▶ Category Performance"), "back in compact the saved fold returns")
  }

  @Test func aWindowBelowTheMinimumShowsWhyUntilItGrows() {
    for (width, height) in [(19, 10), (30, 4), (5, 3), (1, 1)] {
      var screen = ScreenFixture.screen(width: width, height: height)
      let frame = screen.frame()
      #expect(frame.lines.count == height)
      #expect(frame.lines.allSatisfy { DisplayWidth.of($0) <= width })
      if width >= 16 { #expect(frame.lines[0].hasPrefix("Window too small")) }
      #expect(screen.press(.down) == [], "keys wait")
      #expect(screen.press(.character("q")) == [.quit], "q still quits")
      screen.resize(width: 50, height: 20)
      #expect(screen.frame().lines[0].hasPrefix("October 2026"))
    }
  }

  @Test func theFilterNarrowsRowsAsItIsTypedAndEscapeUndoesIt() {
    var screen = ScreenFixture.screen(height: 30)
    let effects = screen.press(.character("/"), .character("c"), .character("a"), .character("f"), .character("É"))
    #expect(effects == [.saveSections(SectionStates(expanded: [.expenses: true]))], "a filter opens the rows")
    let frame = screen.frame()
    #expect(frame.lines.last?.hasPrefix("/cafÉ_") == true)
    #expect(frame.lines[0] == "▼ Expenses (7)", "the matches show under their header at the top")
    let rows = frame.lines.filter { $0.hasPrefix("▸ ") }
    #expect(rows.count == 7 && rows.allSatisfy { $0.contains("Café") })
    screen.press(.enter)
    #expect(screen.frame().lines.last?.hasPrefix("filter \"cafÉ\" · 7 of 40") == true)
    screen.press(.character("/"), .backspace, .backspace, .backspace, .backspace, .character("z"), .escape)
    #expect(screen.filter == "cafÉ", "Escape brings back the filter from before")
    screen.press(.character("/"), .backspace, .backspace, .backspace, .backspace, .enter)
    #expect(screen.frame().lines[0] == "▼ Expenses (40)")
    screen.press(.character("/"), .character("z"), .character("z"), .character("z"), .enter)
    #expect(screen.text().contains("No expense matches the filter."))
  }

  @Test func monthKeysAskForTheNeighbouringMonthAndANewReportFoldsRows() {
    var screen = ScreenFixture.screen()
    #expect(screen.press(.character("m")) == [.loadMonth(Month(year: 2026, month: 9)!)])
    #expect(screen.press(.character("[")) == [.loadMonth(Month(year: 2026, month: 9)!)])
    #expect(screen.press(.character("M")) == [.loadMonth(Month(year: 2026, month: 11)!)])
    #expect(screen.press(.character("]")) == [.loadMonth(Month(year: 2026, month: 11)!)])
    screen.press(.character("e"))
    screen.moveTo(.row(0))
    screen.press(.enter)
    var next = ScreenFixture.report(rows: 5)
    next.month = Month(year: 2026, month: 11)!
    screen.replaceReport(next)
    #expect(screen.expandedRows.isEmpty)
    #expect(screen.cursor == .header(.expenses))
    #expect(screen.frame().lines.last?.hasSuffix("Nov 2026") == true)
  }

  @Test func quitKeysAndHelp() {
    var screen = ScreenFixture.screen()
    #expect(screen.press(.character("q")) == [.quit])
    #expect(screen.press(.escape) == [.quit])
    #expect(screen.press(.interrupt) == [.quit])
    screen.press(.character("?"))
    let help = screen.text()
    #expect(help.hasPrefix("Keys"))
    #expect(help.contains("accordion mode on/off"))
    #expect(screen.press(.escape) == [], "Escape closes the help, not the screen")
    #expect(screen.mode == .browse)
  }

  @Test func aClickTogglesWhatIsUnderItAndTheWheelScrolls() {
    var screen = ScreenFixture.screen(height: 40)
    let frame = screen.frame()
    let row = frame.lines.firstIndex(of: "▶ Expenses (40)")! + 1
    let effects = screen.press(.mouse(MouseEvent(action: .press(button: 0), column: 3, row: row)))
    #expect(effects == [.saveSections(SectionStates(expanded: [.expenses: true]))])
    #expect(screen.frame().lines[0] == "▼ Expenses (40)")
    screen.press(.mouse(MouseEvent(action: .press(button: 0), column: 3, row: 4)))
    #expect(screen.frame().lines[3].hasPrefix("▾ "), "a click on a row expands it")
    #expect(screen.press(.mouse(MouseEvent(action: .press(button: 0), column: 1, row: 40))) == [], "status line")
    let before = screen.scroll
    screen.press(.mouse(MouseEvent(action: .wheelDown, column: 1, row: 1)))
    #expect(screen.scroll == before + 3)
    #expect(screen.frame().highlighted != nil)
  }

  @Test func aSectionRevealsOverAFewFramesUnlessAnimationIsOff() {
    var screen = ScreenFixture.screen(height: 20, animation: true)
    screen.moveTo(.header(.expenses))
    screen.press(.enter)
    var shown: [Int] = []
    while screen.isRevealing {
      shown.append(screen.frame().lines.filter { $0.hasPrefix("▸ ") }.count)
      screen.advanceReveal()
    }
    shown.append(screen.frame().lines.filter { $0.hasPrefix("▸ ") }.count)
    #expect(shown.count == ReportScreen.revealSteps.count + 1)
    #expect(shown == shown.sorted() && shown.first! < shown.last!, "rows appear frame by frame: \(shown)")
    #expect(shown.last == 16)

    var still = ScreenFixture.screen(height: 20, animation: false)
    still.moveTo(.header(.expenses))
    still.press(.enter)
    #expect(!still.isRevealing)
    #expect(still.frame().lines.filter { $0.hasPrefix("▸ ") }.count == 16)
  }

  @Test func nothingFromTheDataReachesTheTerminalRaw() {
    let hostile = ScreenFixture.report(rows: 3) { _ in "evil\u{1B}]0;pwned\u{07}\u{9B}31m\u{202E}txt" }
    var screen = ScreenFixture.screen(hostile, width: 100, height: 30)
    screen.press(.character("e"))
    screen.moveTo(.row(0))
    screen.press(.enter, .character("/"), .character("\u{202E}"))
    let text = screen.text()
    #expect(!text.contains("\u{1B}") && !text.contains("\u{07}") && !text.contains("\u{9B}"))
    #expect(!text.unicodeScalars.contains("\u{202E}"))
    #expect(text.contains("evil^[]0;pwned^G"))
    #expect(text.contains("<U+202E>"))
  }

  @Test func asciiGlyphsAndColour() {
    var ascii = ScreenFixture.screen(height: 60, glyphs: .ascii)
    ascii.press(.character("e"))
    ascii.moveTo(.row(0))
    ascii.press(.enter)
    let text = ascii.text()
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII || "麺éü🇩🇪".unicodeScalars.contains($0) })
    #expect(text.contains("v Expenses (40)") && text.contains("v Oct 20") && text.contains("> Oct"), "\(text)")

    var plain = ScreenFixture.screen(color: false)
    #expect(!plain.text().contains("\u{1B}"), "no colour: no escape in the text")
    var coloured = ScreenFixture.screen(color: true)
    let frame = coloured.frame()
    #expect(frame.lines.joined().contains("\u{1B}[31m"), "over budget in red")
    let styled = frame.styled(color: true)[frame.highlighted!]
    #expect(styled.hasPrefix("\u{1B}[7m") && styled.contains("\u{1B}[0;7m"), "reverse is re-applied after each reset")
    #expect(!styled.dropLast(4).contains("\u{1B}[0m"), "only the line's end resets")
  }
}

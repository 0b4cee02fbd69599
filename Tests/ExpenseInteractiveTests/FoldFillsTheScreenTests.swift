import ExpenseCore
import ExpenseRender
import Testing

@testable import ExpenseInteractive

/// Folding the last section must not leave its header alone at the top
/// of an empty screen: the screen scrolls back so it is full, the cursor still on it.
@Suite struct FoldFillsTheScreenTests {
  /// The body lines (without the status line) that hold text.
  static func shown(_ frame: Frame) -> [String] { frame.lines.dropLast().filter { !$0.isEmpty } }

  @Test(arguments: [20, 32, 50, 80, 120])
  func foldingTheLastSectionKeepsTheScreenFull(width: Int) {
    for height in [8, 12, 20] {
      var screen = ScreenFixture.screen(width: width, height: height)
      screen.moveTo(.header(.trends))
      screen.press(.enter)
      #expect(screen.frame().lines[0].hasPrefix("▼ Trends"), "\(width)x\(height): opened at the top")
      screen.press(.enter)
      let frame = screen.frame()
      #expect(frame.cursorLine?.hasPrefix("▶ Trends") == true, "\(width)x\(height): \(frame.lines)")
      // The report reaches the last line of the screen, or starts at its top.
      #expect(
        !frame.lines[height - 2].isEmpty || frame.lines[0].hasPrefix("October 2026"),
        "\(width)x\(height): the screen is full again\n\(frame.lines)")
      #expect(Self.shown(frame).count > 2, "\(width)x\(height): \(frame.lines)")
      #expect(frame.lines.contains { $0.hasPrefix("▶ Expenses") }, "\(width)x\(height): \(frame.lines)")
    }
  }

  @Test func collapseAllAtTheEndShowsTheFoldedHeaders() {
    var screen = ScreenFixture.screen(width: 40, height: 12)
    screen.press(.character("e"))
    screen.press(.end)
    screen.press(.character("c"))
    let frame = screen.frame()
    #expect(frame.lines.contains { $0.hasPrefix("▶ Expenses") }, "\(frame.lines)")
    #expect(frame.lines.contains { $0.hasPrefix("▶ Trends") }, "\(frame.lines)")
    #expect(frame.highlighted != nil, "the cursor is on screen: \(frame.lines)")
  }
}

import ExpenseCore
import ExpenseRender
import TestSupport
import Testing

@testable import ExpenseInteractive

/// The `?` screen at every width: each line fits (by the independent width checker, Python's
/// wcwidth), and every word of every key's explanation is on screen, wrapped rather than cut.
@Suite struct HelpScreenTests {
  @Test func theKeysHelpFitsAndKeepsEveryWordFrom20To200() throws {
    var texts: [(width: Int, text: String)] = []
    for width in 20...200 {
      var screen = ScreenFixture.screen(width: width, height: 60)
      screen.press(.character("?"))
      let frame = screen.frame()
      let help = frame.lines.dropLast()  // the status line is checked by the layout tests
      let text = help.joined(separator: "\n")
      for (keys, action) in ReportScreen.keyHelp {
        for word in (keys + " " + action).split(separator: " ") {
          #expect(text.contains(word), "width \(width): '\(word)' is missing\n\(text)")
        }
      }
      #expect(!text.contains("…"), "width \(width): cut off\n\(text)")
      texts.append((width, frame.lines.joined(separator: "\n") + "\n"))
    }
    // A sample through the independent checker (a process per text: every width is slow).
    for (width, text) in texts where [20, 21, 31, 32, 40, 59, 60, 80, 200].contains(width) {
      let verdict = try WidthChecker.check(text, width: width)
      #expect(verdict.fits, "width \(width): \(verdict.report)")
    }
  }
}

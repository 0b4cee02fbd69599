import ExpenseCore
import ExpenseInteractive
import ExpenseRender
import TestSupport
import Testing

/// Filing a row where it is read, frame by frame: `f` asks for the category with completion
/// over the ledger's names, the driver's rule offer is asked with y/n, Escape changes nothing,
/// `u` asks for an undo, and the report comes back where it was with what changed said. Every
/// prompt fits the width.
@Suite struct FilingScreenTests {
  static func screen(width: Int = 60) -> ReportScreen {
    var screen = ScreenFixture.screen(width: width, height: 24)
    screen.categoryNames = ScreenFixture.categories
    screen.moveTo(.header(.expenses))
    screen.press(.enter, .down)
    return screen
  }

  @Test func aRowIsFiledWithCompletionAndARuleOffered() throws {
    var screen = Self.screen()
    guard case .row(let index) = screen.cursor, let id = screen.report.expenses?[index].id else {
      Issue.record("no row under the cursor")
      return
    }
    #expect(screen.press(.character("f")) == [])
    #expect(screen.frame().lines.last?.hasPrefix("Category: _") == true)
    screen.press(.character("g"), .character("r"))
    #expect(screen.frame().lines.last?.hasPrefix("Category: gr_  Tab: Groceries") == true, "\(screen.text())")
    screen.press(.tab)
    #expect(screen.frame().lines.last?.hasPrefix("Category: Groceries_") == true)
    #expect(screen.press(.enter) == [.proposeCategory(expenseID: id, category: "Groceries")])
    // The driver found a rule worth offering.
    #expect(screen.offerRule(expenseID: id, category: "Groceries", pattern: "Café Müller", moreRows: 6) == [])
    let prompt = screen.frame().lines.last ?? ""
    #expect(prompt.hasPrefix("Also rule 'Café Müller' → Groceries (6 more rows)? y/n"), "\(prompt)")
    #expect(screen.press(.character("x")) == [], "other keys wait for an answer")
    #expect(screen.press(.character("y")) == [.file(expenseID: id, category: "Groceries", rulePattern: "Café Müller")])
    #expect(screen.mode == .browse)

    // A name the ledger knows, typed in other letters, is that name; "n" files without the rule.
    screen.press(.character("f"))
    for character in "dining OUT" { screen.press(.character(character)) }
    #expect(screen.press(.enter) == [.proposeCategory(expenseID: id, category: "Dining out")])
    screen.offerRule(expenseID: id, category: "Dining out", pattern: "Café Müller", moreRows: 1)
    #expect(screen.frame().lines.last?.contains("(1 more row)") == true)
    #expect(screen.press(.character("n")) == [.file(expenseID: id, category: "Dining out", rulePattern: nil)])
    // No rule to offer: filed at once.
    screen.press(.character("f"), .character("X"), .enter)
    #expect(
      screen.offerRule(expenseID: id, category: "X", pattern: nil, moreRows: 0)
        == [.file(expenseID: id, category: "X", rulePattern: nil)])
  }

  @Test func escapeChangesNothingAndUAsksForAnUndo() {
    var screen = Self.screen()
    let before = screen.text()
    screen.press(.character("f"), .character("R"), .escape)
    #expect(screen.mode == .browse)
    #expect(screen.frame().lines.last?.hasPrefix("nothing was changed") == true)
    #expect(screen.press(.character("f"), .enter) == [], "an empty name files nothing")
    #expect(screen.press(.character("u")) == [.undo])
    // On a header, f says how to use it.
    var header = ScreenFixture.screen(width: 60, height: 24)
    #expect(header.press(.character("f")) == [])
    #expect(header.frame().lines.last?.hasPrefix("f files a row") == true)
    _ = before
  }

  @Test func theReportComesBackWhereItWasWithANotice() {
    var screen = Self.screen()
    screen.press(.down, .down)
    let cursor = screen.cursor
    let line = screen.frame().highlighted
    var changed = ScreenFixture.report()
    changed.expenses?[0].category = "Rent"
    screen.refreshReport(changed, notice: "#1 filed into Rent · u undoes")
    #expect(screen.cursor == cursor && screen.frame().highlighted == line)
    #expect(screen.frame().lines.last?.hasPrefix("#1 filed into Rent · u undoes") == true)
  }

  @Test func everyPromptFitsFrom20To120() throws {
    var texts: [(Int, String)] = []
    for width in 20...120 {
      var screen = Self.screen(width: width)
      screen.press(.character("f"))
      for character in "Groceries and a very long name 麺🇩🇪" { screen.press(.character(character)) }
      let typing = screen.frame()
      guard case .row(let index) = screen.cursor, let id = screen.report.expenses?[index].id else { continue }
      screen.press(.enter)
      screen.offerRule(expenseID: id, category: "Groceries", pattern: "Noodle Bar 麺", moreRows: 12)
      let asking = screen.frame()
      for frame in [typing, asking] {
        for line in frame.lines { #expect(DisplayWidth.of(line) <= width, "\(width): \(line)") }
      }
      if [20, 33, 40, 80, 120].contains(width) {
        texts.append((width, typing.lines.joined(separator: "\n") + "\n"))
        texts.append((width, asking.lines.joined(separator: "\n") + "\n"))
      }
    }
    for (width, text) in texts {
      let verdict = try WidthChecker.check(text, width: width)
      #expect(verdict.fits, "width \(width): \(verdict.report)")
    }
  }
}

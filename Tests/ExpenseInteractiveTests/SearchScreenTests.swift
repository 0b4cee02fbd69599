import ExpenseCore
import ExpenseInteractive
import ExpenseRender
import TestSupport
import Testing

/// `/` then Tab in the full-screen report: the search goes to every month (the driver's rows),
/// the Expenses section shows them, Escape gives the month's rows back; without Tab the filter
/// of the shown month stays what it was.
@Suite struct SearchScreenTests {
  static func type(_ text: String, into screen: inout ReportScreen) -> [ScreenEffect] {
    var effects: [ScreenEffect] = []
    for character in text { effects += screen.press(.character(character)) }
    return effects
  }

  @Test func tabSearchesEveryMonthAndEscapeComesBack() {
    var screen = ScreenFixture.screen()
    let month = screen.report
    _ = screen.press(.character("/"))
    _ = Self.type("shell", into: &screen)
    _ = screen.press(.tab)
    #expect(screen.searchAllMonths)
    #expect(screen.frame().lines.last?.hasPrefix("/shell_ · all months") == true, "\(screen.frame().lines)")
    #expect(screen.press(.enter) == [.search("shell")])
    #expect(screen.filter.isEmpty, "the month's rows are not filtered behind the search")

    // The driver's rows: two from other months.
    let found = [
      Expense(
        id: 900, date: CivilDate(year: 2026, month: 3, day: 4)!, amount: Money(minor: -4_200, currency: .usd),
        description: "Shell Oil 1111", category: "Transport"),
      Expense(
        id: 901, date: CivilDate(year: 2025, month: 12, day: 1)!, amount: Money(minor: -3_900, currency: .usd),
        description: "Shell Oil 2222", category: "Transport"),
    ]
    screen.showSearch("shell", results: found, total: 7)
    let lines = screen.frame().lines
    #expect(lines.first == "▼ Expenses (2)", "\(lines)")
    #expect(lines.contains { $0.contains("Shell Oil 1111") } && lines.contains { $0.contains("Shell Oil 2222") })
    #expect(lines.last?.hasPrefix("\"shell\" in all months: 7 rows, newest 2 shown") == true, "\(lines.last ?? "")")
    #expect(lines.allSatisfy { DisplayWidth.of($0) <= 50 })
    #expect(screen.report.month == month.month && screen.report.groups == month.groups, "the month's numbers stay")

    _ = screen.press(.escape)
    #expect(screen.searchShown == nil && screen.report == month, "Escape: the month's rows again")
    #expect(screen.press(.escape) == [.quit])
  }

  @Test func withoutTabTheFilterStaysTheMonths() {
    var screen = ScreenFixture.screen()
    _ = screen.press(.character("/"))
    let effects = Self.type("shell", into: &screen)
    #expect(effects.allSatisfy { if case .search = $0 { false } else { true } })
    #expect(screen.press(.enter).isEmpty)
    #expect(screen.filter == "shell" && !screen.searchAllMonths)
  }
}

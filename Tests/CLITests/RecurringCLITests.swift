import Foundation
import Testing

/// `recurring` and the report's `recurring` section through the built binary, on the 18-month
/// fixture: the series listed with their ids, confirm and ignore, and every line of every new
/// output within the width (the independent width checker) from 20 to 200 columns.
@Suite struct RecurringCLITests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/recurring/ledger.csv").path

  func ledger() throws -> CLI {
    let cli = try CLI()
    #expect(try cli.run(["import", Self.fixture]).code == 0)
    #expect(try cli.run(["categories", "set-kind", "Salary", "income"]).code == 0)
    return cli
  }

  @Test func seriesAreListedConfirmedAndIgnored() throws {
    let cli = try ledger()
    let listed = try cli.run(["recurring", "--today", "2026-11-20", "--width", "200"])
    #expect(listed.code == 0)
    #expect(
      listed.stdout.split(separator: "\n").map { String($0.prefix(30)) } == [
        "#4 RENT OAK STREET APTS REF: $", "#3 PURE GYM WEEKLY: $12.00 wee", "#5 SPOTIFY: $10.99 monthly · n",
        "#2 NETFLIX.COM: $17.99 ($15.49", "#1 CITY WATER QUARTERLY BILL: ",
      ], "\(listed.stdout)")
    #expect(listed.stdout.contains("#4 RENT OAK STREET APTS REF: $1,500.00 monthly · late since 2026-11-01"))
    let json = try cli.json(["recurring", "--today", "2026-11-20", "--format", "json"]) as? [[String: Any]]
    #expect(json?.compactMap { $0["id"] as? Int } == [4, 3, 5, 2, 1])
    #expect(json?.first?["status"] as? String == "late" && json?.first?["amountMinor"] as? Int == 150_000)

    let ignored = try cli.run(["recurring", "ignore", "#4", "--today", "2026-11-20", "--width", "80"])
    #expect(ignored.code == 0 && ignored.stdout.hasPrefix("Ignored #4 RENT OAK STREET APTS REF"), "\(ignored.stdout)")
    let report = try cli.run(["report", "--today", "2026-11-20", "--width", "80"])
    #expect(report.stdout.contains("▶ Recurring (4 · 3 still due)"), "\(report.stdout)")
    #expect(try cli.run(["recurring", "--today", "2026-11-20"]).stdout.contains("#4") == false)
    #expect(try cli.run(["recurring", "--all", "--today", "2026-11-20"]).stdout.contains("ignored"))
    #expect(try cli.run(["undo"]).code == 0)
    let back = try cli.run(["report", "--today", "2026-11-20", "--width", "80"])
    #expect(back.stdout.contains("▶ Recurring (5 · 3 still due · 1 late)"), "\(back.stdout)")
    let confirmed = try cli.run(["recurring", "confirm", "3", "--today", "2026-11-20"])
    #expect(confirmed.code == 0 && confirmed.stdout.contains("confirmed"))
  }

  @Test func everyNewOutputFitsEveryWidth() throws {
    let cli = try ledger()
    for width in 20...200 {
      let plain = [20, 21, 39, 40, 59, 60, 80, 99, 100, 200].contains(width)
      for arguments in [["recurring", "--all"], ["report", "--expand", "recurring"]]
        + (plain ? [["report", "--expand", "recurring", "--plain"]] : [])
      {
        let shown = try cli.run(arguments + ["--today", "2026-11-20", "--width", String(width)])
        #expect(shown.code == 0, "\(arguments) \(width): \(shown.stderr)")
        let check = try independentWidthCheck(shown.stdout, width: width)
        #expect(check.ok, "\(arguments) at \(width): \(check.message)")
      }
    }
  }
}

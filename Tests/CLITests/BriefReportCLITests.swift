import Foundation
import Testing

/// `report --brief` and `report --exit-status` through the built binary, on the twelve-month
/// ledger (`TwelveMonthLedgerTests`): one line that fits, and an exit code cron can mail on.
@Suite struct BriefReportCLITests {
  @Test func oneLineAndAnExitStatusOfItsOwn() throws {
    let cli = try TwelveMonthLedgerTests.ledger()
    let november = ["report", "--month", "2026-11", "--today", TwelveMonthLedgerTests.today]
    // $797.26 + $80.00 carried in − $760.00 = $117.26 left; 10 days after the 20th.
    let brief = try cli.run(november + ["--brief", "--width", "80"])
    #expect(brief.code == 0 && brief.stdout == "Nov: $117.26 left · 10 days\n", "\(brief.stdout)")
    for width in 20...60 {
      let line = try cli.run(november + ["--brief", "--width", String(width)])
      let check = try independentWidthCheck(line.stdout, width: width)
      #expect(line.code == 0 && check.ok && line.stdout.split(separator: "\n").count == 1, "\(width): \(line.stdout)")
    }
    #expect(try cli.run(november + ["--exit-status"]).code == 0, "nothing over, nothing projected over")
    // $300.00 more at the trattoria: Dining out is over what it has ($260.00).
    let csv = "Date,Description,Amount,Category\n2026-11-19,TRATTORIA ROMA,-300.00,Dining out\n"
    #expect(try cli.run(["import", try cli.file("more.csv", csv)]).code == 0)
    let over = try cli.run(november + ["--exit-status", "--width", "80"])
    #expect(over.code == 3, "over budget: 3, neither 1 nor a sysexits code")
    #expect(over.stdout.contains("Category Performance"), "the report is printed as usual")
    let line = try cli.run(november + ["--brief", "--exit-status", "--width", "80"])
    #expect(line.code == 3 && line.stdout.contains("1 over"), "\(line.stdout)")
    // An error keeps its own code.
    #expect(try cli.run(november + ["--exit-status", "--width", "10"]).code == 64)
  }
}

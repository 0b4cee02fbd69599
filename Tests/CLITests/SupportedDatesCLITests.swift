import Foundation
import Testing

/// Dates and months outside 1900-01-01 through 2999-12-31 are refused at every door of the
/// command line (64 for a flag or an argument, 65 for a row of a file), and a database an older
/// version filled with such values still reports, lists and exports.
@Suite struct SupportedDatesCLITests {
  @Test func flagsOutsideTheRangeAreUsageErrors() throws {
    let cli = try CLI()
    let cases: [([String], String)] = [
      (["report", "--month", "0001-01"], "month '0001-01' is outside the supported range"),
      (["report", "--today", "0001-01-01"], "date '0001-01-01' is outside the supported range"),
      (["report", "--month", "3000-01"], "1900-01 through 2999-12"),
      (["browse", "--month", "0999-05"], "1900-01 through 2999-12"),
      (["budget", "set", "Groceries", "10", "--month", "0999-05"], "month '0999-05'"),
      (["add", "0001-01-01", "1", "X"], "date '0001-01-01' is outside the supported range"),
      (["add", "3000-01-01", "1", "X"], "1900-01-01 through 2999-12-31"),
      (["list", "--month", "0999-05"], "month '0999-05'"),
      (["export", "--format", "ledger", "--from", "0001-01-01"], "date '0001-01-01'"),
      (["edit", "1", "--date", "0001-01-01"], "date '0001-01-01'"),
    ]
    for (arguments, mention) in cases {
      let result = try cli.run(arguments)
      #expect(result.code == 64, "\(arguments) exited \(result.code): \(result.stderr)")
      #expect(result.stderr.contains(mention), "\(arguments): \(result.stderr)")
    }
    #expect(try cli.run(["add", "2026-10-01", "1", "Only"]).code == 0)
    #expect((try cli.json(["list", "--format", "json"]) as? [[String: Any]])?.count == 1, "nothing else was stored")
  }

  @Test func theFirstSupportedMonthReports() throws {
    let cli = try CLI()
    try cli.run(["add", "1900-01-01", "1", "Old"])
    let result = try cli.run(["report", "--month", "1900-01", "--today", "1900-01-15", "--width", "60"])
    #expect(result.code == 0, "\(result.stderr)")
    let last = try cli.run(["report", "--month", "2999-12", "--today", "2999-12-31", "--format", "json"])
    #expect(last.code == 0, "\(last.stderr)")
  }

  @Test func anImportedRowOutsideTheRangeIsRejectedWithItsLine() throws {
    let cli = try CLI()
    let path = try cli.file(
      "old.csv", "Date,Description,Amount\n2026-10-01,Ok,-1.00\n0001-01-01,Ancient,-2.00\n2026-10-03,Ok too,-3.00\n")
    let result = try cli.run(["import", path])
    #expect(result.code == 65, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("old.csv:3"), "\(result.stderr)")
    #expect(result.stderr.contains("0001-01-01"), "\(result.stderr)")
    #expect(try cli.run(["list", "--format", "json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }

  @Test func aDatabaseWithOldOutOfRangeValuesStillWorks() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-01", "4.50", "Coffee", "--category", "Groceries"]).code == 0)
    #expect(try cli.run(["budget", "set", "Groceries", "400"]).code == 0)
    // What an older build stored for `add 0001-01-01 1 X` (its day, -719162 + 2^19, wrapped in
    // 20 bits to 853702: the key of a day in 2871) and `budget set Groceries 10 --month 0999-05`.
    let wrappedKey = Int64(853_702) << 43 | 5
    try Python.sqlite(
      cli.db,
      """
      INSERT INTO budget (category, currency, month, amountMinor) VALUES ('Groceries', 'USD', '999-05', 1000);
      INSERT INTO expense (key, id, date, amountMinor, currency, description, category)
        VALUES (\(wrappedKey), 1000, '0001-01-01', -100, 'USD', 'X', 'Groceries');
      INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount)
        VALUES ('1-01', 'USD', 'Groceries', 100, 0, 1, 0);
      INSERT INTO idRun (firstId, lastId, day) VALUES (1000, 1000, 853702);
      """)
    for arguments in [
      ["report", "--month", "2026-10", "--today", "2026-10-20", "--width", "60"],
      ["report", "--month", "1900-01", "--today", "1900-01-20", "--format", "json"],
      ["budget", "list"], ["budget", "list", "--format", "json"], ["list"], ["list", "--format", "json"],
      ["export", "--format", "ledger"], ["export", "--format", "beancount"],
    ] {
      let result = try cli.run(arguments)
      #expect(result.code == 0, "\(arguments) exited \(result.code): \(result.stderr)")
    }
    #expect(
      try cli.run(["list", "--format", "json"]).stdout.contains("\"0001-01-01\""), "the row is shown, to be fixed")
    let check = try cli.run(["check"])
    #expect(check.code == 65, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout.contains("999-05"), "\(check.stdout)")
    #expect(check.stdout.contains("outside the supported range 1900-01-01 through 2999-12-31"), "\(check.stdout)")
    // The ways out the check names work.
    #expect(try cli.run(["budget", "remove", "Groceries", "--month", "0999-05"]).code == 0)
    #expect(try cli.run(["edit", "1000", "--date", "2026-10-05"]).code == 0)
    let after = try cli.run(["check", "--repair"])
    #expect(after.code == 0, "\(after.stdout)\(after.stderr)")
  }
}

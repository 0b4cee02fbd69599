import Foundation
import Testing

/// Accounts that match the bank, through the built binary: statements with balances
/// (`Fixtures/balances`: a checking account's OFX for September and October with `LEDGERBAL`, a
/// savings account's CAMT.053 with `OPBD` and `CLBD`; and an MT940 with `:60F:`/`:62F:`) agree
/// with their rows once imported; with one row gone, the account is off by exactly that row's
/// amount from the first balance after it, and the first row after the last agreement is named.
@Suite struct AccountBalancesCLITests {
  static func accounts(_ cli: CLI) throws -> [[String: Any]] {
    try #require(try cli.json(["accounts", "--format", "json"]) as? [[String: Any]])
  }

  /// The first balance of the account whose name starts with `name` ("": the rows naming none).
  static func balance(_ accounts: [[String: Any]], _ name: String) -> [String: Any]? {
    let account = accounts.first {
      name.isEmpty ? $0["name"] is NSNull || $0["name"] == nil : ($0["name"] as? String)?.hasPrefix(name) == true
    }
    return (account?["balances"] as? [[String: Any]])?.first
  }

  static func id(_ cli: CLI, description: String, date: String) throws -> Int {
    let rows = try #require(
      try cli.json(["list", "--month", String(date.prefix(7)), "--format", "json"]) as? [[String: Any]])
    return try #require(
      rows.first { $0["description"] as? String == description && $0["date"] as? String == date }?["id"] as? Int)
  }

  @Test func aDeletedRowPutsItsAccountOffByItsAmountFromTheNextBalance() throws {
    let cli = try CLI()
    for file in [
      "balances/checking-sep.ofx", "balances/checking-oct.ofx", "balances/savings-oct.camt053.xml",
      "statements/mt940/deutsche-bank-structured.sta",
    ] {
      let run = try cli.run(["import", CLI.fixture(file)])
      #expect(run.code == 0, "\(file): \(run.stderr)")
    }
    var accounts = try Self.accounts(cli)
    for name in ["Checking", "DE89", "10070000"] {
      let balance = try #require(Self.balance(accounts, name), "\(name): \(accounts)")
      #expect(balance["matches"] as? Bool == true, "\(name)")
      #expect(balance["matchedOn"] as? String == "2026-10-31", "\(name)")
    }
    #expect(Self.balance(accounts, "Checking")?["balanceMinor"] as? Int == 181_750)
    #expect(Self.balance(accounts, "Checking")?["statedCount"] as? Int == 2)

    // October's groceries (−$92.10) deleted by mistake: the rows say $92.10 more than the bank
    // from the October statement on; September's still agrees; the first row after it is
    // October's payroll.
    let groceries = try Self.id(cli, description: "GREENLEAF GROCERS", date: "2026-10-14")
    #expect(try cli.run(["delete", String(groceries)]).code == 0)
    // The savings account's €300.00 credit of 10 October.
    let credit = try Self.id(cli, description: "Erika Mustermann / Umbuchung", date: "2026-10-10")
    #expect(try cli.run(["delete", String(credit)]).code == 0)
    accounts = try Self.accounts(cli)
    let checking = try #require(Self.balance(accounts, "Checking"))
    #expect(checking["matches"] as? Bool == false)
    #expect(checking["offByMinor"] as? Int == -9_210, "the bank holds $92.10 less than the rows say")
    #expect(checking["offSince"] as? String == "2026-10-31")
    #expect(checking["matchedOn"] as? String == "2026-09-30")
    let first = try #require(checking["firstRowAfterMatch"] as? [String: Any])
    #expect(first["description"] as? String == "ACME PAYROLL" && first["date"] as? String == "2026-10-02")
    let savings = try #require(Self.balance(accounts, "DE89"))
    #expect(savings["offByMinor"] as? Int == 30_000 && savings["offSince"] as? String == "2026-10-31")
    #expect(savings["matchedOn"] as? String == "2026-09-30", "the opening balance, the day before its date")
    #expect(Self.balance(accounts, "10070000")?["matches"] as? Bool == true)

    // The report's `accounts` section: folded, its header keeps the news; JSON `accounts`.
    let report = try cli.run(["report", "--month", "2026-10", "--today", "2026-11-02", "--width", "60"])
    #expect(report.words.contains("▶ Accounts (3 · 2 off"), "\(report.stdout)")
    let json = try #require(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-11-02", "--format", "json"]) as? [String: Any])
    let checks = try #require(json["accounts"] as? [[String: Any]])
    let checkingCheck = try #require(checks.first { ($0["account"] as? String)?.hasPrefix("Checking") == true })
    #expect(checkingCheck["offByMinor"] as? Int == -9_210 && checkingCheck["matches"] as? Bool == false)
    let opened = try cli.run(
      ["report", "--month", "2026-10", "--today", "2026-11-02", "--width", "40", "--expand", "accounts"])
    #expect(opened.words.contains("off by $92.10 since 2026-10-31"), "\(opened.stdout)")
    #expect(try independentWidthCheck(opened.stdout, width: 40).ok)

    // The text says it, fitting the width.
    for width in [40, 80, 120] {
      let text = try cli.run(["accounts", "--width", String(width)])
      #expect(text.code == 0)
      #expect(text.words.contains("off by $92.10 since 2026-10-31"), "\(width): \(text.stdout)")
      #expect(text.words.contains("matches the bank on 2026-10-31"), "\(width)")
      #expect(text.words.contains("ACME PAYROLL"), "\(width): where to look")
      let check = try independentWidthCheck(text.stdout, width: width)
      #expect(check.ok, "\(width): \(check.message)")
    }
  }

  /// A statement imported with one row missing (cut from the file, its balance the bank's): the
  /// import itself says the account is off by exactly that row's amount.
  @Test func anImportMissingARowSaysSoAtOnce() throws {
    let cli = try CLI()
    let september = try cli.run(["import", CLI.fixture("balances/checking-sep.ofx")])
    #expect(september.words.contains("Checking …2345: matches the bank on 2026-09-30"), "\(september.stdout)")
    let october = try String(contentsOfFile: CLI.fixture("balances/checking-oct.ofx"), encoding: .utf8)
    let start = try #require(october.range(of: "<STMTTRN>\r\n<TRNTYPE>DEBIT\r\n<DTPOSTED>20261014"))
    let end = try #require(october.range(of: "</STMTTRN>\r\n", range: start.upperBound..<october.endIndex))
    var cut = october
    cut.removeSubrange(start.lowerBound..<end.upperBound)
    let run = try cli.run(["import", try cli.file("checking-oct-cut.ofx", cut)])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(run.words.contains("Checking …2345: off by $92.10 since 2026-10-31"), "\(run.stdout)")
  }

  /// A CSV's running balance column: each day's balance (the first row of a day in a file that
  /// runs newest first), checked like a statement's; none from the day of a row left out that
  /// the bank's balance already counts (Revolut's pending card payment).
  @Test func aRunningBalanceColumnIsTheDaysBalance() throws {
    let cli = try CLI()
    let run = try cli.run(["import", CLI.fixture("import/checking_running_balance_newest_first.csv")])
    #expect(run.words.contains("The statement states 4 balances"), "\(run.stdout)")
    var balance = try #require(Self.balance(try Self.accounts(cli), ""), "the rows that name no account")
    #expect(balance["matches"] as? Bool == true && balance["balanceMinor"] as? Int == 274_152)
    // The payroll of 9 October (+$1,800.00) gone: the bank holds $1,800.00 more from that day.
    let payroll = try Self.id(cli, description: "ACH GUSTO 8812", date: "2026-10-09")
    #expect(try cli.run(["delete", String(payroll)]).code == 0)
    balance = try #require(Self.balance(try Self.accounts(cli), ""))
    #expect(balance["offByMinor"] as? Int == 180_000 && balance["offSince"] as? String == "2026-10-09")
    #expect((balance["firstRowAfterMatch"] as? [String: Any])?["description"] as? String == "CHECK 1042")

    let revolut = try CLI()
    let imported = try revolut.run(["import", CLI.fixture("import/revolut_mixed.csv")])
    #expect(imported.words.contains("The statement states 3 balances"), "\(imported.stdout)")
    let accounts = try Self.accounts(revolut)
    let balances = (accounts.first?["balances"] as? [[String: Any]]) ?? []
    #expect(balances.allSatisfy { $0["matches"] as? Bool == true }, "\(balances)")
    #expect(Set(balances.compactMap { $0["currency"] as? String }) == ["EUR", "GBP"])
  }

  @Test func removingAnImportRemovesItsBalancesAndARenameKeepsThem() throws {
    let cli = try CLI()
    #expect(try cli.run(["import", CLI.fixture("balances/checking-sep.ofx")]).code == 0)
    #expect(try cli.run(["import", CLI.fixture("balances/checking-oct.ofx")]).code == 0)
    // The same file again adds no balance twice.
    #expect(try cli.run(["import", CLI.fixture("balances/checking-oct.ofx")]).code == 0)
    #expect(Self.balance(try Self.accounts(cli), "Checking")?["statedCount"] as? Int == 2)
    let renamed = try cli.run(["accounts", "rename", "Checking", "Joint checking"])
    #expect(renamed.code == 0, "\(renamed.stderr)")
    let joint = try #require(Self.balance(try Self.accounts(cli), "Joint checking"))
    #expect(joint["statedCount"] as? Int == 2 && joint["matches"] as? Bool == true)
    let imports = try #require(try cli.json(["imports", "--format", "json"]) as? [[String: Any]])
    let october = try #require(
      imports.first { ($0["file"] as? String)?.hasSuffix("checking-oct.ofx") == true }?["id"] as? Int)
    #expect(try cli.run(["imports", "remove", String(october)]).code == 0)
    let left = try #require(Self.balance(try Self.accounts(cli), "Joint checking"))
    #expect(left["statedCount"] as? Int == 1 && left["matchedOn"] as? String == "2026-09-30")
  }

  @Test func reconcileChecksATypedBalance() throws {
    let cli = try CLI()
    #expect(try cli.run(["import", CLI.fixture("balances/checking-sep.ofx")]).code == 0)
    #expect(try cli.run(["import", CLI.fixture("balances/checking-oct.ofx")]).code == 0)
    // 15 October: 1,154.60 + 2,000 − 1,200 − 92.10 = 1,862.50.
    let agrees = try cli.run(["reconcile", "checking", "1862.50", "--as-of", "2026-10-15", "--format", "json"])
    #expect(agrees.code == 0, "\(agrees.stderr)")
    let kept = try #require(try JSONSerialization.jsonObject(with: Data(agrees.stdout.utf8)) as? [String: Any])
    #expect(kept["saved"] as? Bool == true && kept["fromRowsMinor"] as? Int == 186_250)
    #expect(Self.balance(try Self.accounts(cli), "Checking")?["statedCount"] as? Int == 3)
    let off = try cli.run(["reconcile", "2345", "1900", "--as-of", "2026-10-15", "--width", "60"])
    #expect(off.code == 0)
    #expect(off.words.contains("the rows give $1,862.50 on 2026-10-15, off by $37.50 from $1,900.00"), "\(off.stdout)")
    #expect(off.words.contains("nothing was kept"))
    #expect(Self.balance(try Self.accounts(cli), "Checking")?["statedCount"] as? Int == 3)
    // A card's balance is negative, written as it is (not after `--`).
    #expect(try cli.run(["import", CLI.fixture("accounts/card-sep-oct.ofx")]).code == 0)
    let card = try cli.run(["reconcile", "8812", "-63.75", "--as-of", "2026-10-31"])
    #expect(
      card.code == 0 && card.words.contains("-$63.75 on 2026-10-31 matches the rows"), "\(card.stdout)\(card.stderr)")
    // Elsewhere a negative number is still the usage error it was.
    #expect(try cli.run(["budget", "set", "Travel", "-5"]).code == 64)
  }
}

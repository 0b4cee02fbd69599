import Foundation
import Testing

/// One person's accounts (`Fixtures/accounts`) through the built binary: a checking account,
/// its card's OFX and the same card's QIF, imported one after the other. What a user reads:
/// the probable duplicates named with the file and line they duplicate, the transfer pairs,
/// `transfers` and `transfers unpair`, and October's report.
@Suite struct AccountsCLITests {
  static let folder = CLI.root.appendingPathComponent("Fixtures/accounts")

  func importing(_ cli: CLI, _ name: String, _ extra: [String] = []) throws -> CLI.Result {
    try cli.run(["import", Self.folder.appendingPathComponent(name).path, "--width", "80"] + extra)
  }

  @Test func threeFilesOfTwoAccountsCountEachTransactionOnce() throws {
    let cli = try CLI()
    defer { try? FileManager.default.removeItem(at: cli.directory) }
    #expect(try importing(cli, "checking.csv").code == 0)
    let card = try importing(cli, "card-sep-oct.ofx")
    #expect(card.code == 0 && card.words.contains("Matched 2 rows as transfers"), "\(card.stdout)")
    #expect(card.words.contains("line 79: with #6, checking.csv:7"))
    #expect(card.words.contains("expenses transfers unpair ID"))
    let preview = try importing(cli, "card-oct-nov.qif", ["--preview", "--width", "200"])
    #expect(preview.stdout.contains("[probable duplicate of #12, card-sep-oct.ofx:58]"), "\(preview.stdout)")
    #expect(preview.words.contains("5 probable duplicates"))
    let qif = try importing(cli, "card-oct-nov.qif")
    #expect(qif.code == 0)
    #expect(qif.words.contains("2 new, 0 duplicates"), "\(qif.stdout)")
    for line in ["line 2: probably #12, card-sep-oct.ofx:58", "line 6: probably #13, card-sep-oct.ofx:65"] {
      #expect(qif.words.contains(line), "\(qif.stdout)")
    }
    #expect(qif.words.contains("Keep them with: --keep-probable-duplicates"))
    // Every line of the summary fits its width.
    for width in [20, 40, 80] {
      let again = try importing(cli, "card-oct-nov.qif", ["--width", "\(width)", "--dry-run"])
      let verdict = try independentWidthCheck(again.stdout, width: width)
      #expect(verdict.ok, "\(width): \(verdict.message)")
    }
    let report = try #require(
      try cli.json(["report", "--month", "2026-10", "--today", "2026-11-28", "--format", "json"]) as? [String: Any])
    let groups = try #require(report["groups"] as? [[String: Any]])
    let totals = groups.first?["totals"] as? [String: Any]
    #expect(totals?["spentMinor"] as? Int == 176_345, "October's spending is the truth")
    #expect(groups.first?["transferCount"] as? Int == 2)

    let pairs = try #require(try cli.json(["transfers", "--format", "json"]) as? [[String: Any]])
    #expect(pairs.map { [$0["outId"] as? Int, $0["inId"] as? Int] } == [[3, 11], [6, 15]])
    for width in [20, 40, 80, 200] {
      let listed = try cli.run(["transfers", "--width", "\(width)"])
      let verdict = try independentWidthCheck(listed.stdout, width: width)
      #expect(listed.code == 0 && verdict.ok, "\(width): \(verdict.message)")
    }
    #expect(try cli.run(["list"]).stdout.contains("4929000011118812") == false, "a card number is never listed whole")
    let undone = try cli.run(["transfers", "unpair", "6"])
    #expect(undone.code == 0 && undone.stdout.contains("Unpaired #6 and #15"))
    let row = try #require(
      (try cli.json(["list", "--format", "json"]) as? [[String: Any]])?.first { $0["id"] as? Int == 6 })
    #expect(row["category"] is NSNull && row["transferWith"] == nil)
    #expect(try cli.run(["transfers", "unpair", "6"]).code == 64)
  }
}

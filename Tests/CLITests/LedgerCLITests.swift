import Foundation
import Testing

/// `expenses ledger`, `expenses user` and `--ledger`, as a user runs them: a second household
/// in its own file, its own data, people with roles, tokens acting for them, and every listing
/// inside the width at every width from 20.
@Suite struct LedgerCLITests {
  @Test func aSecondHouseholdKeepsItsOwnBooks() throws {
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-10-02", "3.00", "coffee", "--category", "Food"]).code == 0)
    let created = try cli.run(["ledger", "create", "family"])
    #expect(created.code == 0 && created.stdout == "created ledger family\n", "\(created.stderr)")
    let file = cli.directory.appendingPathComponent("test.ledgers/family.sqlite").path
    #expect(FileManager.default.fileExists(atPath: file))

    // --ledger before or after the subcommand, or from the environment.
    #expect(try cli.run(["--ledger", "family", "add", "2026-10-03", "40.00", "shoes"]).code == 0)
    let listed = try cli.run(["list", "--ledger", "family", "--width", "80"])
    #expect(listed.stdout.contains("shoes") && !listed.stdout.contains("coffee"), "\(listed.stdout)")
    let viaEnvironment = try cli.run(["list", "--width", "80"], environment: ["EXPENSES_LEDGER": "family"])
    #expect(viaEnvironment.stdout == listed.stdout)
    let main = try cli.run(["list", "--width", "80"])
    #expect(main.stdout.contains("coffee") && !main.stdout.contains("shoes"))

    #expect(try cli.run(["user", "add", "alex", "--ledger", "family", "--role", "write"]).code == 0)
    #expect(try cli.run(["user", "add", "kim", "--ledger", "family", "--role", "read"]).code == 0)
    #expect(try cli.run(["user", "add", "kim", "--ledger", "family", "--role", "boss"]).code == 64)
    let token = try cli.run(["token", "create", "alex-phone", "--user", "alex"])
    #expect(token.code == 0 && token.stdout.hasPrefix("exp_"), "\(token.stderr)")
    let tokens = try cli.run(["token", "list", "--width", "120"])
    #expect(
      tokens.stdout.split(separator: "\n").contains {
        $0.split(separator: " ").prefix(4) == ["alex-phone", "write", "alex", "family"]
      },
      "\(tokens.stdout)")
    #expect(try cli.run(["user", "remove", "alex", "--ledger", "family"]).code == 0)
    #expect(try cli.run(["token", "list", "--width", "120"]).stdout.contains("no role"))

    // Everything these commands print fits, at every width from 20.
    for width in [20, 33, 40, 80] {
      for arguments in [["ledger", "list"], ["user", "list"], ["token", "list"]] {
        let result = try cli.run(arguments + ["--width", String(width)])
        #expect(result.code == 0)
        let verdict = try independentWidthCheck(result.stdout, width: width)
        #expect(verdict.ok, "\(arguments) at \(width): \(verdict.message)")
      }
      let added = try cli.run([
        "user", "add", "someone-with-a-long-name", "--ledger", "family", "--role", "read", "--width", String(width),
      ])
      #expect(try independentWidthCheck(added.stdout, width: width).ok)
    }
  }

  @Test func serveAnswersForEveryLedgerAndRefusesOne() throws {
    let cli = try CLI()
    let refused = try cli.run(["serve", "--ledger", "family"])
    #expect(refused.code == 64)
    #expect(refused.stderr.contains("serve answers for every ledger"), "\(refused.stderr)")
  }

  @Test func restoreNamesTheFileNotALedger() throws {
    let cli = try CLI()
    let refused = try cli.run(["restore", "backup.sqlite", "--ledger", "family"])
    #expect(refused.code == 64)
    #expect(refused.stderr.contains("name it with --db"), "\(refused.stderr)")
  }
}

import Foundation
import Testing

/// `expenses token create|list|revoke` as a user runs them.
@Suite struct TokenCLITests {
  @Test func createPrintsOnlyTheTokenAndListAndRevokeFollow() throws {
    let cli = try CLI()
    let created = try cli.run(["token", "create", "phone", "--scope", "read", "--expires", "30"])
    #expect(created.code == 0, "\(created.stderr)")
    let lines = created.stdout.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].hasPrefix("exp_") && lines[0].count == 47, "\(created.stdout)")
    #expect(created.stderr.isEmpty)
    // Only a hash is stored.
    #expect(try cli.databaseBytes().range(of: Data(lines[0].utf8)) == nil)

    let again = try cli.run(["token", "create", "phone", "--scope", "write"])
    #expect(again.code == 64)
    #expect(again.stderr.contains("exists already"))
    #expect(try cli.run(["token", "create", "x", "--scope", "admin"]).code == 64)
    #expect(try cli.run(["token", "create", "x", "--scope", "read", "--expires", "0"]).code == 64)

    let list = try cli.run(["token", "list"])
    #expect(list.code == 0)
    #expect(list.stdout.split(separator: "\n").contains { $0.split(separator: " ").prefix(2) == ["phone", "read"] })
    #expect(list.stdout.contains("active"))
    #expect(!list.stdout.contains(String(lines[0])))

    let revoked = try cli.run(["token", "revoke", "phone"])
    #expect(revoked.code == 0)
    #expect(try cli.run(["token", "list"]).stdout.contains("revoked "))
    let unknown = try cli.run(["token", "revoke", "phone"])
    #expect(unknown.code == 64)
    #expect(unknown.stderr.contains("no active token named 'phone'"))
  }
}

import ArgumentParser
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses token create|list|revoke`: bearer tokens for `expenses serve`.
struct TokenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract: "Create, list or revoke tokens for the HTTP API ('expenses serve').",
    discussion: """
      Only a SHA-256 hash of a token is stored: 'create' prints the token once, alone on stdout.
      A read token may only GET; a write token may do everything. A token acts for one user       ('local' unless --user) on one ledger (--ledger, else the user's only ledger, else       'default'), and never does more than the user's role there allows.

      Examples:
        expenses token create phone --scope read
        expenses token create importer --scope write --expires 90
        expenses token create alex-phone --user alex --ledger family
        expenses token list
        expenses token revoke phone
      """,
    subcommands: [Create.self, List.self, Revoke.self])

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create", abstract: "Make a token and print it (only once).")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "A unique name for the token (what 'list', 'revoke' and the server's log show).")
    var name: String
    @Option(help: "read (GET only) or write (default with --user: what the user's role allows).")
    var scope: String?
    @Option(help: "Days until it expires (default: never).") var expires: Int?
    @Option(help: "The user the token acts for (default: local, you at this terminal).") var user: String?

    func validate() throws {
      if let scope, APIToken.Scope(rawValue: scope) == nil {
        throw ValidationError("--scope must be 'read' or 'write', not '\(scope)'")
      }
      if scope == nil && user == nil { throw ValidationError("Missing expected argument '--scope <scope>'") }
      if let expires, expires < 1 { throw ValidationError("--expires must be 1 day or more") }
      guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("the name is empty") }
    }

    func run() throws {
      let minted = try database.writing().mintToken(
        name: name, scope: scope.flatMap(APIToken.Scope.init(rawValue:)), expiresInDays: expires, user: user,
        ledger: try database.resolvedLedger)
      try Console.out(minted.secret + "\n")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List tokens: name, scope, user, ledger, created, expires, state.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let rows = try database.reading().tokens().map { listing in
        let token = listing.token
        return [
          token.name, token.scope.rawValue, token.user, token.ledger, token.createdAt, token.expiresAt ?? "never",
          listing.state,
        ]
      }
      if rows.isEmpty {
        let text = "no tokens; make one with 'expenses token create NAME --scope read'"
        return try Console.out(FittedText.fit(text, width: layout.resolved))
      }
      let table = ColumnTable(
        header: ["name", "scope", "user", "ledger", "created", "expires", "state"], rows: rows)
      try Console.out(table.render(width: layout.resolved, maxCell: .max))
    }
  }

  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "revoke",
      abstract: "Revoke a token by name (the server refuses it within a second).")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The token's name.") var name: String

    func run() throws {
      try database.writing().revokeToken(name: name)
      try Console.out("revoked \(TerminalText.sanitize(name))\n")
    }
  }
}

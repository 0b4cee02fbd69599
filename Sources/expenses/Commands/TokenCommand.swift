import ArgumentParser
import ExpenseRender
import ExpenseServer
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
      A read token may only GET; a write token may do everything.

      Examples:
        expenses token create phone --scope read
        expenses token create importer --scope write --expires 90
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
    @Option(help: "read (GET only) or write.") var scope: String
    @Option(help: "Days until it expires (default: never).") var expires: Int?

    func validate() throws {
      guard APIToken.Scope(rawValue: scope) != nil else {
        throw ValidationError("--scope must be 'read' or 'write', not '\(scope)'")
      }
      if let expires, expires < 1 { throw ValidationError("--expires must be 1 day or more") }
      guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("the name is empty") }
    }

    func run() throws {
      let token = TokenHasher.newToken()
      try database.writing().createToken(
        name: name, scope: APIToken.Scope(rawValue: scope) ?? .read, expiresInDays: expires,
        hash: TokenHasher.hash(token))
      try Console.out(token + "\n")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List tokens: name, scope, created, expires, state.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var layout: WidthOptions

    func run() throws {
      let rows = try database.reading().tokens().map { listing in
        let token = listing.token
        return [token.name, token.scope.rawValue, token.createdAt, token.expiresAt ?? "never", listing.state]
      }
      if rows.isEmpty {
        let text = "no tokens; make one with 'expenses token create NAME --scope read'"
        return try Console.out(FittedText.fit(text, width: layout.resolved))
      }
      let table = ColumnTable(header: ["name", "scope", "created", "expires", "state"], rows: rows)
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

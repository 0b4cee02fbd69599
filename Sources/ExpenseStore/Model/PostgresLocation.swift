import Foundation

/// Where a PostgreSQL store lives, read from a `postgres://` (or `postgresql://`) URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or a Unix socket directory as libpq writes
/// it, `postgres://USER@/DATABASE?host=/run/postgresql`; `ledger=NAME` in the query names the
/// ledger (else `default`).
///
/// Why a type of its own: the password must never reach a message, a log line or a path shown
/// to the user, so everything printable goes through `redacted`, which drops it.
public struct PostgresLocation: Sendable, Hashable {
  public var user: String
  public var password: String?
  /// A host name, or nil with `socketDirectory`.
  public var host: String?
  public var port: Int
  /// The folder holding the server's socket (`.s.PGSQL.PORT`), for a server on this machine.
  public var socketDirectory: String?
  public var database: String
  /// The ledger named by the URL's `ledger` parameter; `nil` means `default`.
  public var ledger: String?

  public init(
    user: String, password: String? = nil, host: String? = nil, port: Int = 5432, socketDirectory: String? = nil,
    database: String, ledger: String? = nil
  ) {
    self.user = user
    self.password = password
    self.host = host
    self.port = port
    self.socketDirectory = socketDirectory
    self.database = database
    self.ledger = ledger
  }

  /// Whether `text` names a PostgreSQL store rather than a SQLite file.
  public static func isURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// Reads a `postgres://` URL; nil when it is not one or lacks a user or a database.
  public init?(url text: String) {
    guard Self.isURL(text), let parts = URLComponents(string: text) else { return nil }
    let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
    guard let user = parts.user, !user.isEmpty, !database.isEmpty, !database.contains("/") else { return nil }
    let socket = parts.queryItems?.first { $0.name == "host" }?.value
    let host = parts.host.flatMap { $0.isEmpty ? nil : $0 }
    guard (host == nil) != (socket == nil), socket.map({ $0.hasPrefix("/") }) ?? true else { return nil }
    let port = parts.port ?? 5432
    guard (1...65_535).contains(port) else { return nil }
    let ledger = parts.queryItems?.first { $0.name == "ledger" }?.value
    guard ledger.map({ !$0.isEmpty }) ?? true else { return nil }
    self.init(
      user: user, password: parts.password, host: host, port: port, socketDirectory: socket, database: database,
      ledger: ledger)
  }

  /// The URL without its password: what messages and logs may show.
  public var redacted: String {
    var text = "postgres://\(user)@\(host ?? "")"
    if host != nil && port != 5432 { text += ":\(port)" }
    text += "/\(database)"
    var query: [String] = []
    if let socketDirectory { query.append("host=\(socketDirectory)") }
    if let ledger { query.append("ledger=\(ledger)") }
    if !query.isEmpty { text += "?" + query.joined(separator: "&") }
    return text
  }

  /// The socket file of a server reached through a folder.
  public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }
}

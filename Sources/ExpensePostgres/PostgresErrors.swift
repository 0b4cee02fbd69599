import ExpenseStore
import Foundation
import PostgresNIO

/// PostgreSQL's errors as the store's `StoreError`s, so the CLI's exit codes and the API's
/// statuses are the same as over SQLite.
///
/// Only the server's primary message is kept: never the query, its values, the detail line
/// (which repeats row values) or the URL's password; the store is named by its redacted URL.
enum PostgresErrors {
  /// An error while connecting: the server, the database or the credentials.
  static func opening(_ error: any Error, location: PostgresLocation) -> StoreError {
    let mapped = map(error, location: location)
    if case .sqlite(let message) = mapped { return .cannotOpen(path: location.redacted, reason: message) }
    return mapped
  }

  static func map(_ error: any Error, location: PostgresLocation) -> StoreError {
    if let error = error as? StoreError { return error }
    let path = location.redacted
    guard let error = error as? PSQLError else {
      return .io(path: path, detail: String(describing: type(of: error)))
    }
    guard let info = error.serverInfo else {
      switch error.code {
      case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
        return .io(path: path, detail: "the connection to the server failed or was closed")
      case .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError:
        return .cannotOpen(path: path, reason: "the server refused the credentials")
      default:
        return .sqlite("PostgreSQL client error (\(error.code))")
      }
    }
    let state = info[.sqlState] ?? ""
    let message = info[.message] ?? "unknown server error"
    switch state {
    case "22003", "23514":
      // A sum past 2^62 - 1 (the rollup's CHECK) or past bigint itself.
      return .totalTooLarge(
        path: path,
        detail: "these rows would bring a monthly total past the most expenses can add up; nothing was written")
    case "40001", "40P01", "55P03", "57014": return .busy(path: path)
    // The server has no connection left (max_connections, a role's or database's limit):
    // a moment later it may.
    case "53300": return .noConnection(path: path)
    case "53100": return .diskFull(path: path)
    case "25006": return .readOnly(path: path, action: "write")
    case "3D000": return .noDatabase(path: path)
    case let state where state.hasPrefix("28"):
      return .cannotOpen(path: path, reason: "the server refused the credentials")
    case let state where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("58"):
      return .io(path: path, detail: message)
    case let state where state.hasPrefix("XX"):
      return .corrupt(path: path, detail: message)
    default:
      return .sqlite(message)
    }
  }
}

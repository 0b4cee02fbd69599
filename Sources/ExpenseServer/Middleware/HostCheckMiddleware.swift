import HTTPTypes
import Hummingbird
import Synchronization

/// Which `Host` values a server bound to a loopback address answers (DNS rebinding defence).
///
/// Why: a web page on another site can point its own name at 127.0.0.1 and have the browser
/// send requests to this server as a same-origin page; the only trace is the `Host` header,
/// which then names the attacker's host. On a loopback bind only loopback names and addresses
/// (`localhost`, `127.x.x.x`, `[::1]`) with the server's port are accepted, plus the names given
/// with `--allowed-host` (any port: a reverse proxy in front usually sends its own). A request
/// without a Host header cannot come from a browser and is accepted.
public final class HostPolicy: Sendable {
  /// Lower-cased names from `--allowed-host`.
  let allowedNames: Set<String>
  /// The port the server listens on; 0 until it is known (then any port is accepted).
  private let boundPort = Atomic<Int>(0)
  /// The last authority accepted and the port then known: clients send the same Host on
  /// every request, so it is compared once instead of parsed again (about 1.5 % of a cached
  /// report request's CPU).
  private let lastAccepted = Mutex<(authority: String, port: Int)?>(nil)

  init(allowedNames: [String]) {
    self.allowedNames = Set(allowedNames.map { HostPolicy.normalized($0) })
  }

  func listening(on port: Int) { boundPort.store(port, ordering: .relaxed) }

  /// Whether a request with this authority (`Host` header) is answered.
  func accepts(_ authority: String) -> Bool {
    let bound = boundPort.load(ordering: .relaxed)
    if lastAccepted.withLock({ $0.map { $0.authority == authority && $0.port == bound } ?? false }) { return true }
    guard decides(authority, bound: bound) else { return false }
    lastAccepted.withLock { $0 = (authority, bound) }
    return true
  }

  private func decides(_ authority: String, bound: Int) -> Bool {
    guard let (name, port) = HostPolicy.split(authority) else { return false }
    if allowedNames.contains(name) { return true }
    guard HostPolicy.isLoopback(name) else { return false }
    return bound == 0 || (port ?? 80) == bound
  }

  static func normalized(_ name: String) -> String {
    var name = name.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    return name
  }

  /// `name[:port]` or `[v6][:port]`; nil when malformed.
  static func split(_ authority: String) -> (String, Int?)? {
    var name = Substring(authority)
    var port: Int?
    if name.hasPrefix("[") {
      guard let close = name.firstIndex(of: "]") else { return nil }
      let rest = name[name.index(after: close)...]
      name = name[...close]
      if !rest.isEmpty {
        guard rest.hasPrefix(":"), let value = Int(rest.dropFirst()) else { return nil }
        port = value
      }
    } else if let colon = name.lastIndex(of: ":") {
      guard let value = Int(name[name.index(after: colon)...]) else { return nil }
      port = value
      name = name[..<colon]
    }
    guard !name.isEmpty else { return nil }
    return (normalized(String(name)), port)
  }

  /// `localhost` (and names under it), `127.0.0.0/8` and `[::1]`.
  static func isLoopback(_ name: String) -> Bool {
    if name == "localhost" || name.hasSuffix(".localhost") || name == "[::1]" { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
      && parts.allSatisfy { part in part.allSatisfy { $0.isASCII && $0.isNumber } && UInt8(part) != nil }
  }
}

/// Refuses requests whose Host the policy does not accept with 421 (problem+json), on every
/// route: `/health`, `/metrics`, the login page and the API alike.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
  let policy: HostPolicy

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    if let authority = request.head.authority, !policy.accepts(authority) {
      throw APIProblem(
        status: .misdirectedRequest,
        detail: "this server does not answer for the host '\(authority)'; use http://localhost or 127.0.0.1"
          + " with the server's port, or start it with --allowed-host NAME")
    }
    return try await next(request, context)
  }
}

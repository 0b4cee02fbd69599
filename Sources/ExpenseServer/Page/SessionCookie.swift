import HTTPTypes

/// The browser's login: the API token itself in an HttpOnly cookie (docs/http-api.md, "Web page").
///
/// Why the token and not a session id: the server keeps no sessions, so there is nothing to
/// expire, store or lose on restart, and revoking the token (`expenses token revoke`) logs the
/// browser out within the token cache's second, as it does every other client. HttpOnly keeps
/// it away from scripts; SameSite=Strict keeps other sites' pages from sending it. `Secure` is
/// left out because the server speaks plain HTTP on loopback, where a browser would then never
/// send the cookie back.
enum SessionCookie {
  static let name = "expenses_session"

  /// The header that lets the cookie authenticate a `/v1` request. A cross-origin page can set
  /// a custom header only after a CORS preflight, which this server never grants, so a request
  /// carrying it came from a page of this origin (CSRF protection).
  static let pageHeader = HTTPField.Name("X-Expenses-Page")!

  /// `Set-Cookie` for a login.
  static func set(_ token: String) -> String { "\(name)=\(token); HttpOnly; SameSite=Strict; Path=/" }

  /// `Set-Cookie` for a logout: empty and already expired.
  static let clear = "\(name)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"

  /// The token in the request's cookies, if any (HTTP/2 may split `Cookie` over several fields).
  static func token(in headers: HTTPFields) -> String? {
    for field in headers[values: .cookie] {
      for pair in field.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
        let value = parts[1].trimmingCharacters(in: .whitespaces)
        if !value.isEmpty { return value }
      }
    }
    return nil
  }

  /// Whether the request says it comes from the served page (`X-Expenses-Page: 1`).
  static func fromPage(_ headers: HTTPFields) -> Bool { headers[pageHeader] == "1" }
}

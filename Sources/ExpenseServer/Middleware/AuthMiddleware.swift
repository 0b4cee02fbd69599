import ExpenseService
import ExpenseStore
import Foundation
import HTTPTypes
import Hummingbird

/// The token a request was authenticated with: for handlers (idempotency keys are kept per
/// token), the request log, and the backend, which serves the token's ledger and user alone.
enum Authenticated {
  @TaskLocal static var token: APIToken?
}

/// Bearer authentication of every `/v1` request: 401 without a valid token (unknown, revoked,
/// expired, or its user no longer in its ledger), 403 when a token that may only read (its
/// scope, or its user's role) asks for anything but GET or HEAD. `/health` and
/// `/metrics` are open; the web page's routes check the session cookie themselves
/// (`PageRoutes`). The served page's script authenticates with that cookie, accepted here only
/// beside `X-Expenses-Page: 1` (`SessionCookie.pageHeader`: CSRF protection).
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
  let tokens: TokenCache
  let clock: ServerClock

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let path = request.uri.path
    guard path == "/v1" || path.hasPrefix("/v1/") else { return try await next(request, context) }
    let secret = try Self.secret(request.headers)
    guard let token = try await tokens.validToken(hash: TokenHasher.hash(secret), now: clock.now()) else {
      throw APIProblem.unauthorized("the token is unknown, revoked or expired")
    }
    guard let scope = token.effectiveScope else {
      throw APIProblem.unauthorized("the token's user is no longer a member of its ledger")
    }
    let reads = request.method == .get || request.method == .head
    if !reads && scope != .write {
      let why = token.scope == .write ? "its user has the role read in its ledger" : "it has the read scope"
      throw APIProblem(
        status: .forbidden, detail: "token '\(token.displayName)' may only read (\(why)); this request writes")
    }
    RequestNote.current?.token = token.displayName
    return try await Authenticated.$token.withValue(token) { try await next(request, context) }
  }

  /// The token of a request: its bearer token, or else its session cookie when the request
  /// also carries the page header. A bearer header always wins, so API clients are unaffected.
  static func secret(_ headers: HTTPFields) throws -> String {
    guard let header = headers[.authorization] else {
      if let cookie = SessionCookie.token(in: headers) {
        guard SessionCookie.fromPage(headers) else {
          throw APIProblem.unauthorized(
            "the session cookie authenticates /v1 only with the header 'X-Expenses-Page: 1' (CSRF protection);"
              + " other clients send 'Authorization: Bearer TOKEN'")
        }
        return cookie
      }
      throw APIProblem.unauthorized("this needs 'Authorization: Bearer TOKEN' (make one with 'expenses token create')")
    }
    guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
      throw APIProblem.unauthorized("the Authorization header must be 'Bearer TOKEN'")
    }
    return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
  }
}

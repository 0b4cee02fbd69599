import ExpenseService
import ExpenseStore
import Foundation
import HTTPTypes
import Hummingbird

/// The token a `/v1` request was authenticated with, for handlers (idempotency keys are kept
/// per token) and the request log.
enum Authenticated {
  @TaskLocal static var token: APIToken?
  /// The change stamp read for this request (after it arrived): the report cache checks its
  /// entry against it, so a request costs one stamp read, not two.
  @TaskLocal static var stamp: Int64?
}

/// Bearer authentication of every `/v1` request: 401 without a valid token (unknown, revoked or
/// expired), 403 when a `read` token asks for anything but GET or HEAD. `/health` and
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
    let stamp = try await tokens.currentStamp()
    guard let token = try await tokens.validToken(hash: TokenHasher.hash(secret), now: clock.now(), stamp: stamp)
    else {
      throw APIProblem.unauthorized("the token is unknown, revoked or expired")
    }
    let reads = request.method == .get || request.method == .head
    if !reads && token.scope != .write {
      throw APIProblem(
        status: .forbidden, detail: "token '\(token.name)' has the read scope; this request writes")
    }
    RequestNote.current?.token = token.name
    return try await Authenticated.$token.withValue(token) {
      try await Authenticated.$stamp.withValue(stamp) { try await next(request, context) }
    }
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

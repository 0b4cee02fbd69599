import ExpenseStore
import Foundation
import HTTPTypes
import Hummingbird

/// The token a `/v1` request was authenticated with, for handlers (idempotency keys are kept
/// per token) and the request log.
enum Authenticated {
  @TaskLocal static var token: APIToken?
}

/// Bearer authentication of every `/v1` request: 401 without a valid token (unknown, revoked or
/// expired), 403 when a `read` token asks for anything but GET or HEAD. `/health` and
/// `/metrics` are open.
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
  let tokens: TokenCache
  let clock: ServerClock

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let path = request.uri.path
    guard path == "/v1" || path.hasPrefix("/v1/") else { return try await next(request, context) }
    guard let header = request.headers[.authorization] else {
      throw APIProblem.unauthorized("this needs 'Authorization: Bearer TOKEN' (make one with 'expenses token create')")
    }
    guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
      throw APIProblem.unauthorized("the Authorization header must be 'Bearer TOKEN'")
    }
    let secret = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    guard let token = try await tokens.validToken(hash: TokenHasher.hash(secret), now: clock.now()) else {
      throw APIProblem.unauthorized("the token is unknown, revoked or expired")
    }
    let reads = request.method == .get || request.method == .head
    if !reads && token.scope != .write {
      throw APIProblem(
        status: .forbidden, detail: "token '\(token.name)' has the read scope; this request writes")
    }
    RequestNote.current?.token = token.name
    return try await Authenticated.$token.withValue(token) { try await next(request, context) }
  }
}

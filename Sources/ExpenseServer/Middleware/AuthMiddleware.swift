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
    if let token = plainBearer(header) { return token }
    guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
      throw APIProblem.unauthorized("the Authorization header must be 'Bearer TOKEN'")
    }
    return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
  }

  /// The token of `Bearer TOKEN` when the header is printable ASCII with no space around the
  /// token (what every client sends), read on its bytes; nil for anything else, which the
  /// general path above reads. Why: counting characters, lower-casing and Foundation's
  /// trimming cost about 5 % of a cached report request's CPU.
  static func plainBearer(_ header: String) -> String? {
    let bytes = header.utf8
    guard bytes.count > 7 else { return nil }
    var index = bytes.startIndex
    for expected in "bearer ".utf8 {
      let byte = bytes[index]
      let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
      guard lowered == expected else { return nil }
      index = bytes.index(after: index)
    }
    let token = bytes[index...]
    guard let first = token.first, let last = token.last, first != 0x20, last != 0x20,
      token.allSatisfy({ (0x21...0x7E).contains($0) })
    else { return nil }
    return String(Substring(token))
  }
}

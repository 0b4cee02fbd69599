import ExpenseCore
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation
import HTTPTypes
import Hummingbird

/// The report as a web page for a browser (docs/http-api.md, "Web page"): `GET /` and
/// `GET /reports/{YYYY-MM}[?today=]` answer `report --format html`'s page plus its one script
/// (`GET /page.js`) to a logged-in browser and send others to `GET /login`, whose form
/// (`POST /login`) puts the token in an HttpOnly cookie; `POST /logout` removes it.
///
/// The cookie is checked with the bearer middleware's `TokenCache`, so a revoked or expired
/// token logs the browser out as it refuses every other client.
struct PageRoutes: Sendable {
  static let scriptPath = "/page.js"
  /// The served page's policy as a header too, where it can also forbid framing (clickjacking).
  static let pagePolicy = HTMLRenderer.servedPolicy + "; frame-ancestors 'none'"
  static let securityPolicy = HTTPField.Name("Content-Security-Policy")!
  static let noSniff = HTTPField.Name("X-Content-Type-Options")!

  let backend: any ExpenseBackend
  let tokens: TokenCache
  let clock: ServerClock

  func register(on router: Router<ServerContext>) {
    router.get("/") { request, _ in try await home(request) }
    router.get("/reports") { request, _ in try await pickedMonth(request) }
    router.get("/reports/:month") { request, context in
      try await report(request, month: context.parameters.get("month") ?? "")
    }
    router.get("/login") { _, _ in Self.login(status: .ok) }
    router.post("/login") { request, _ in try await logIn(request) }
    router.post("/logout") { request, _ in try logOut(request) }
    router.get(RouterPath(stringLiteral: Self.scriptPath)) { _, _ in Self.script() }
  }

  /// `/` is this month's page (a redirect, so the address names the month and can be kept).
  func home(_ request: Request) async throws -> Response {
    guard try await session(request) != nil else { return Self.redirect("/login") }
    var target = "/reports/\(clock.today().calendarMonth)"
    if let today = request.uri.queryParameters["today"], let date = try? APIHandler.date(String(today), field: "today")
    {
      target = "/reports/\(date.calendarMonth)?today=\(date)"
    }
    return Self.redirect(target)
  }

  func report(_ request: Request, month text: String) async throws -> Response {
    guard let token = try await session(request) else { return Self.redirect("/login") }
    RequestNote.current?.token = token.displayName
    let month = try APIHandler.month(text, field: "month")
    var today = clock.today()
    let pinned = request.uri.queryParameters["today"] != nil
    if let value = request.uri.queryParameters["today"] {
      today = try APIHandler.date(String(value), field: "today")
    }
    let day = today
    let html = try await Authenticated.$token.withValue(token) {
      try await backend.fromReplica {
        try $0.reportPage(month: month, today: day, script: PageRoutes.scriptPath, pinnedToday: pinned)
      }
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", Self.securityPolicy: Self.pagePolicy,
        Self.noSniff: "nosniff",
      ],
      body: .init(byteBuffer: ByteBuffer(string: html)))
  }

  /// `GET /reports?month=YYYY-MM[&today=]`: the month picker's plain GET form, sent on to the
  /// month's page (so it works without a script, and the address names the month).
  func pickedMonth(_ request: Request) async throws -> Response {
    guard try await session(request) != nil else { return Self.redirect("/login") }
    let month = try APIHandler.month(String(request.uri.queryParameters["month"] ?? ""), field: "month")
    var target = "/reports/\(month)"
    if let value = request.uri.queryParameters["today"] {
      target += "?today=\(try APIHandler.date(String(value), field: "today"))"
    }
    return Self.redirect(target)
  }

  /// Checks the pasted token as the bearer middleware would; only a valid one becomes the cookie.
  func logIn(_ request: Request) async throws -> Response {
    try Self.sameOrigin(request)
    let body = try await request.body.collect(upTo: 16 * 1024)
    let secret = Self.formValue("token", in: String(buffer: body))?.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let secret, !secret.isEmpty, Self.cookieSafe(secret),
      let token = try await tokens.validToken(hash: TokenHasher.hash(secret), now: clock.now()),
      token.effectiveScope != nil
    else {
      return Self.login(status: .unauthorized, error: "That token is unknown, revoked or expired.")
    }
    RequestNote.current?.token = token.displayName
    var response = Self.redirect("/")
    response.headers[.setCookie] = SessionCookie.set(secret)
    return response
  }

  func logOut(_ request: Request) throws -> Response {
    try Self.sameOrigin(request)
    var response = Self.redirect("/login")
    response.headers[.setCookie] = SessionCookie.clear
    return response
  }

  /// The token of the request's cookie if it is valid now.
  func session(_ request: Request) async throws -> APIToken? {
    guard let secret = SessionCookie.token(in: request.headers) else { return nil }
    let token = try await tokens.validToken(hash: TokenHasher.hash(secret), now: clock.now())
    return token?.effectiveScope == nil ? nil : token
  }

  static func redirect(_ location: String) -> Response {
    Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
  }

  static func login(status: HTTPResponse.Status, error: String? = nil) -> Response {
    Response(
      status: status,
      headers: [
        .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", securityPolicy: LoginPage.headerPolicy,
        noSniff: "nosniff",
      ],
      body: .init(byteBuffer: ByteBuffer(string: LoginPage.html(error: error))))
  }

  static func script() -> Response {
    Response(
      status: .ok,
      headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache", noSniff: "nosniff"],
      body: .init(byteBuffer: ByteBuffer(string: PageScript.source)))
  }

  /// A login or logout posted by another site's page is refused (login CSRF): browsers send
  /// `Origin` with every POST, and it must name this server.
  static func sameOrigin(_ request: Request) throws {
    guard let origin = request.headers[.origin] else { return }
    guard let authority = request.head.authority, origin == "http://\(authority)" else {
      throw APIProblem(status: .forbidden, detail: "a login or logout must come from this server's own page")
    }
  }

  /// One field of an `application/x-www-form-urlencoded` body.
  static func formValue(_ name: String, in body: String) -> String? {
    for pair in body.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.first == Substring(name) else { continue }
      let raw = parts.count > 1 ? String(parts[1]) : ""
      return raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
    return nil
  }

  /// Only a value a cookie can carry unquoted (RFC 6265 cookie-octet); tokens are base64url.
  static func cookieSafe(_ value: String) -> Bool {
    value.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && scalar.value > 0x20 && !"\",;\\".unicodeScalars.contains(scalar) && scalar.value != 0x7F
    }
  }
}

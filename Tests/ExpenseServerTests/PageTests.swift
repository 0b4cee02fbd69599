import ExpenseCore
import ExpenseService
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceTestSupport
import Testing

@testable import ExpenseServer

/// The served web page: login with a token into an HttpOnly cookie, the report page equal to
/// `--format html`'s plus its script, and the cookie accepted by `/v1` only beside the
/// `X-Expenses-Page` header (CSRF protection).
@Suite struct PageTests {
  static let pageHeader = HTTPField.Name("X-Expenses-Page")!

  @Test func pagesWithoutACookieSendTheBrowserToTheLoginForm() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      for path in ["/", "/reports/2026-10", "/reports/2026-10?today=2026-10-20"] {
        let reply = try await client.page(.get, path)
        #expect(reply.status == 303, "\(path)")
        #expect(reply.headers[.location] == "/login", "\(path)")
      }
      let revoked = try await client.page(.get, "/", cookie: "exp_not-a-token")
      #expect(revoked.status == 303 && revoked.headers[.location] == "/login")
      let form = try await client.page(.get, "/login")
      #expect(form.status == 200)
      #expect(form.headers[.contentType] == "text/html; charset=utf-8")
      #expect(form.text.contains("<form method=\"post\" action=\"/login\">"))
      #expect(form.text.contains("name=\"token\""))
      #expect(!form.text.contains("<script") && !form.text.contains("http://") && !form.text.contains("https://"))
    }
  }

  @Test func aBadTokenReShowsTheFormWithoutACookieAndAGoodOneSetsIt() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      for body in ["token=exp_wrong", "token=", "other=1", "token=\(harness.writeToken)x"] {
        let bad = try await client.page(.post, "/login", form: body)
        #expect(bad.status == 401, "\(body)")
        #expect(bad.headers[.setCookie] == nil, "\(body)")
        #expect(bad.text.contains("unknown, revoked or expired") && bad.text.contains("<form"), "\(body)")
      }
      // Pasted with surrounding blanks and form-encoded, as a browser sends it.
      let good = try await client.page(.post, "/login", form: "token=+\(harness.writeToken)%0A")
      #expect(good.status == 303)
      #expect(good.headers[.location] == "/")
      let cookie = try #require(good.headers[.setCookie])
      #expect(cookie == "expenses_session=\(harness.writeToken); HttpOnly; SameSite=Strict; Path=/")

      let home = try await client.page(.get, "/?today=2026-10-20", cookie: harness.writeToken)
      #expect(home.status == 303 && home.headers[.location] == "/reports/2026-10?today=2026-10-20")
      let plainHome = try await client.page(.get, "/", cookie: harness.writeToken)
      #expect(plainHome.headers[.location] == "/reports/2026-10", "the clock's month")

      let out = try await client.page(.post, "/logout", cookie: harness.writeToken)
      #expect(out.status == 303 && out.headers[.location] == "/login")
      #expect(out.headers[.setCookie]?.hasPrefix("expenses_session=;") == true)
      #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)

      let foreign = try await client.page(
        .post, "/login", form: "token=\(harness.writeToken)", headers: [.origin: "http://evil.example"])
      #expect(foreign.status == 403 && foreign.headers[.setCookie] == nil, "a login posted by another site")
    }
  }

  @Test func theServedPageIsTheCLIsPagePlusItsScript() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let imported = try await client.call(.post, "/v1/imports?file=bank.csv", csv: ServerHarness.csv(rows: 12))
      #expect(imported.status == 201)
      try await client.call(.put, "/v1/sections/expenses", json: #"{"expanded":true}"#)

      let reply = try await client.page(.get, "/reports/2026-10?today=2026-10-20", cookie: harness.writeToken)
      #expect(reply.status == 200)
      #expect(reply.headers[.contentType] == "text/html; charset=utf-8")
      let policy = reply.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
      #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"))
      let page = reply.text
      #expect(page.contains("<details class=\"section\" id=\"expenses\" data-section=\"expenses\" open>"))
      #expect(page.contains("<script src=\"/page.js\" defer></script>"))

      // What `expenses report --month 2026-10 --today 2026-10-20 --format html` prints.
      let printed = try ReportService(store: harness.database).render(
        ReportRequest(today: ServerHarness.today, month: try Month.parse("2026-10"), format: .html))
      #expect(!printed.contains("<script"))
      let staticPolicy = "content=\"default-src 'none'; style-src 'unsafe-inline'\""
      #expect(printed.contains(staticPolicy))
      let servedPolicy =
        "content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'\""
      // The served page is the printed one plus its script, its month links and the hooks the
      // script hangs its controls on; nothing else differs.
      var unserved = page.replacingOccurrences(of: "<script src=\"/page.js\" defer></script>\n", with: "")
        .replacingOccurrences(of: servedPolicy, with: staticPolicy)
      for pattern in [
        #"<style>\n\.months\{[^<]*</style>\n"#, #" data-expense-id="\d+""#,
        #" data-currency="USD" data-minor-digits="2""#,
        #"\n<nav class="months"[\s\S]*?</nav>"#,
      ] {
        unserved = unserved.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
      }
      unserved = unserved.replacingOccurrences(of: "</p>\n</header>", with: "</p></header>")
      #expect(unserved == printed)
      #expect(page.contains("<a rel=\"prev\" href=\"/reports/2026-09?today=2026-10-20\">‹ September 2026</a>"))
      #expect(page.contains("<a rel=\"next\" href=\"/reports/2026-11?today=2026-10-20\">November 2026 ›</a>"))
      #expect(page.contains("<input type=\"month\" name=\"month\" value=\"2026-10\" required>"))
      #expect(page.contains("<tr data-expense-id=\"12\">"))
      // The picker's plain GET form is sent on to the month's page, the pinned day kept.
      let picked = try await client.page(.get, "/reports?month=2026-08&today=2026-10-20", cookie: harness.writeToken)
      #expect(picked.status == 303 && picked.headers[.location] == "/reports/2026-08?today=2026-10-20")
      #expect(try await client.page(.get, "/reports?month=2026-8", cookie: harness.writeToken).status == 400)

      let bad = try await client.page(.get, "/reports/2026-13", cookie: harness.writeToken)
      #expect(bad.status == 400)
    }
  }

  @Test func theCookieAuthenticatesV1OnlyWithThePageHeader() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let cookie: HTTPFields = [.cookie: "theme=dark; expenses_session=\(harness.writeToken)"]
      let withoutHeader = try await client.call(.get, "/v1/sections", auth: .none, headers: cookie)
      #expect(withoutHeader.status == 401)
      #expect(withoutHeader.json["detail"]?.string?.contains("X-Expenses-Page") == true)
      let put = try await client.call(
        .put, "/v1/sections/trends", auth: .none, headers: cookie, json: #"{"expanded":true}"#)
      #expect(put.status == 401, "a cross-site form could send the cookie, but never the header")

      var page = cookie
      page[PageTests.pageHeader] = "1"
      let read = try await client.call(.get, "/v1/sections", auth: .none, headers: page)
      #expect(read.status == 200)
      let saved = try await client.call(
        .put, "/v1/sections/trends", auth: .none, headers: page, json: #"{"expanded":true}"#)
      #expect(saved.status == 200)
      #expect(try ExpenseService(store: harness.database).savedSections().expanded[.trends] == true)

      var readOnly: HTTPFields = [.cookie: "expenses_session=\(harness.readToken)"]
      readOnly[PageTests.pageHeader] = "1"
      #expect(try await client.call(.get, "/v1/sections", auth: .none, headers: readOnly).status == 200)
      let refused = try await client.call(
        .put, "/v1/sections/trends", auth: .none, headers: readOnly, json: #"{"expanded":false}"#)
      #expect(refused.status == 403)
      #expect(try await client.page(.get, "/reports/2026-10", cookie: harness.readToken).status == 200)

      var stale: HTTPFields = [.cookie: "expenses_session=exp_revoked"]
      stale[PageTests.pageHeader] = "1"
      #expect(try await client.call(.get, "/v1/sections", auth: .none, headers: stale).status == 401)
      // A bearer token wins over a cookie.
      #expect(try await client.call(.get, "/v1/sections", auth: .write, headers: stale).status == 200)
    }
  }

  @Test func theScriptIsServedAsJavaScript() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let reply = try await client.page(.get, "/page.js")
      #expect(reply.status == 200)
      #expect(reply.headers[.contentType] == "text/javascript; charset=utf-8")
      #expect(reply.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
      #expect(reply.text.contains("\"X-Expenses-Page\": \"1\""))
      #expect(reply.text.contains("credentials: \"same-origin\""))
      #expect(reply.text.contains("/v1/sections/"))
    }
  }
}

extension ServerHarness.Client {
  /// A browser-like request to the page routes (not in the API document, so not checked by it).
  func page(
    _ method: HTTPRequest.Method, _ uri: String, cookie: String? = nil, form: String? = nil, headers: HTTPFields = [:]
  ) async throws -> ServerHarness.Reply {
    var headers = headers
    if let cookie { headers[.cookie] = "expenses_session=\(cookie)" }
    if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
    let response = try await client.execute(
      uri: uri, method: method, headers: headers, body: form.map { ByteBuffer(string: $0) })
    return ServerHarness.Reply(
      status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
  }
}

import HTTPTypes
import Hummingbird

/// Answers 405 with `Allow` (RFC 9110) instead of the router's 404 when the path is one the
/// server serves but not with this method (`DELETE /v1/budgets`, `POST /health`).
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Path templates (`{x}` matches one segment) and their methods: `openapi.yaml`'s paths and
  /// the web page's routes. A test checks the table against the document.
  static var routes: [(template: String, methods: [HTTPRequest.Method])] {
    [
      ("/health", [.get]), ("/metrics", [.get]), ("/v1/reports/{month}", [.get]),
      ("/v1/sections", [.get]), ("/v1/sections/accordion", [.put]), ("/v1/sections/{id}", [.put]),
      ("/v1/imports", [.get, .post]), ("/v1/imports/{id}", [.delete]), ("/v1/expenses", [.get]),
      ("/v1/expenses/{id}", [.get, .patch, .delete]), ("/v1/budgets", [.get]),
      ("/v1/budgets/{category}", [.get, .put, .delete]), ("/v1/budgets/moves", [.post]),
      ("/v1/budgets/moves/{id}", [.delete]), ("/v1/goals", [.get, .post]), ("/v1/accounts", [.get]),
      ("/v1/goals/{id}", [.delete]),
      ("/v1/categories", [.get]),
      ("/v1/categories/{category}", [.get, .put, .delete]), ("/v1/rules", [.get]),
      ("/v1/rules/{id}", [.get, .put, .delete]), ("/v1/changes", [.get]),
      ("/v1/history", [.get]), ("/v1/history/{id}/undo", [.post]),
      ("/v1/recurring", [.get]), ("/v1/recurring/{id}/confirm", [.post]), ("/v1/recurring/{id}/ignore", [.post]),
      ("/v1/tags", [.get]), ("/v1/tags/{tag}", [.delete]), ("/v1/tags/{tag}/expenses", [.post]),
      ("/v1/tags/{tag}/expenses/{id}", [.delete]), ("/v1/tags/{tag}/budget", [.put]),
      ("/", [.get]), ("/reports", [.get]), ("/reports/{month}", [.get]), ("/login", [.get, .post]),
      ("/logout", [.post]),
      (PageRoutes.scriptPath, [.get]),
    ]
  }

  /// The methods served at `path`, or nil when no route has this path.
  static func methods(for path: String) -> [HTTPRequest.Method]? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    // A literal segment wins over `{x}` (`/v1/sections/accordion` before `/v1/sections/{id}`).
    let matches = routes.filter { route in
      let parts = route.template.split(separator: "/", omittingEmptySubsequences: false)
      return parts.count == segments.count
        && zip(parts, segments).allSatisfy { part, segment in
          part.hasPrefix("{") ? !segment.isEmpty : part == segment
        }
    }
    return matches.min { $0.template.filter { $0 == "{" }.count < $1.template.filter { $0 == "{" }.count }?.methods
  }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      guard let methods = Self.methods(for: request.uri.path), !methods.contains(request.method) else { throw error }
      let allowed = methods
      throw APIProblem(
        status: .methodNotAllowed,
        detail:
          "\(request.method) is not served at this path; it takes \(allowed.map(\.rawValue).joined(separator: ", "))",
        headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
    }
  }
}

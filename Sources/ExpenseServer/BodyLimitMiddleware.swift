import HTTPTypes
import Hummingbird

/// Bodies other than an import's are small JSON documents: at most 1 MiB is read (413 past
/// it). The import route streams its own body under its own limit (`ImportUploads`).
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
  static var jsonLimit: Int { 1 << 20 }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    if request.method == .get || request.method == .head || request.uri.path == "/v1/imports" {
      return try await next(request, context)
    }
    var request = request
    do {
      _ = try await request.collectBody(upTo: Self.jsonLimit)
    } catch let error as HTTPError where error.status == .contentTooLarge {
      throw APIProblem(status: .contentTooLarge, detail: "the body is over 1 MiB", field: "body")
    }
    return try await next(request, context)
  }
}

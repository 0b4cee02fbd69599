import Foundation
import HTTPTypes
import Hummingbird

/// The generated code writes header values URI-encoded, which turns an ETag's quotes into
/// `%22`; this puts them back so `ETag` is the quoted string RFC 9110 requires (and If-Match
/// can send it back as received).
struct ETagHeaderMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    var response = try await next(request, context)
    if let tag = response.headers[.eTag], tag.utf8.contains(UInt8(ascii: "%")),
      let decoded = tag.removingPercentEncoding
    {
      response.headers[.eTag] = decoded
    }
    return response
  }
}

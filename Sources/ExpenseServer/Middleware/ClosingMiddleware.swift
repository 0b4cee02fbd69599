import Hummingbird
import NIOCore

/// Closes the connection once a 413 is written: the client is told at once and the rest of a
/// body over the limit is never read (see `ServerContext`). Outside `ProblemMiddleware`, so it
/// sees the answer an error became.
struct ClosingMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response)
    async throws -> Response
  {
    var response = try await next(request, context)
    guard response.status == .contentTooLarge else { return response }
    response.headers[.connection] = "close"
    let body = response.body
    let channel = context.channel
    response.body = ResponseBody(contentLength: body.contentLength) { writer in
      try await body.write(writer)
      // Behind the answer's writes, which reach the event loop as tasks of their own: a close
      // run first would drop the answer the client is owed.
      channel.eventLoop.execute { channel.close(promise: nil) }
    }
    return response
  }
}

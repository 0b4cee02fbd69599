import Dispatch
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request, after it is answered: request id (also sent back as
/// `X-Request-Id`), method, path, status, duration and the token's name.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let start = DispatchTime.now().uptimeNanoseconds
    let requestID = context.logger[metadataKey: "hb.request.id"].map { "\($0)" } ?? "-"
    var response = try await next(request, context)
    response.headers[.xRequestID] = requestID
    let micros = (DispatchTime.now().uptimeNanoseconds - start) / 1000
    context.logger.info(
      "\(request.method) \(request.uri.path) \(response.status.code) \(micros)us",
      metadata: ["status": "\(response.status.code)"])
    return response
  }
}

extension HTTPField.Name {
  static let xRequestID = HTTPField.Name("X-Request-Id")!
}

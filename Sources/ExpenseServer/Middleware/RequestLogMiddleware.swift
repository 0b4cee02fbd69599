import Dispatch
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request, after it is answered: request id (also sent back as
/// `X-Request-Id`), method, path, status, duration and the token's name (`-` without one).
/// Never a header (Authorization, Cookie) or the query; the path and the token's name pass
/// through `LogText` (a name or path holding LF or ESC cannot forge a line or reach a terminal).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let start = DispatchTime.now().uptimeNanoseconds
    let requestID = context.logger[metadataKey: "hb.request.id"].map { "\($0)" } ?? "-"
    let note = RequestNote()
    var response = try await RequestNote.$current.withValue(note) { try await next(request, context) }
    response.headers[.xRequestID] = requestID
    let micros = (DispatchTime.now().uptimeNanoseconds - start) / 1000
    context.logger.info(
      "\(request.method) \(LogText.clean(request.uri.path)) \(response.status.code) \(micros)us",
      metadata: ["token": "\(LogText.clean(note.token ?? "-"))"])
    return response
  }
}

/// What inner middleware learns about a request for its log line (the token's name): the
/// context travels inwards only, so the log middleware hands this box down instead.
final class RequestNote: @unchecked Sendable {
  @TaskLocal static var current: RequestNote?
  /// Set once, by `AuthMiddleware`, before the handler runs; read after it returns.
  var token: String?
}

extension HTTPField.Name {
  static let xRequestID = HTTPField.Name("X-Request-Id")!
}

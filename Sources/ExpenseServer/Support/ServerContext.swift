import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic one, plus the request's connection.
///
/// Why the connection: after a handler answers, Hummingbird reads whatever is left of the
/// request's body before the next request on the connection. For a body refused as too large
/// that is the whole rest of it (a chunked upload of 400 MiB was read to its end before its
/// 413 went out); `ClosingMiddleware` closes the connection after such an answer instead.
public struct ServerContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}

import NIOCore
import NIOHTTPTypes

/// Closes a new connection whose first request head has not fully arrived within `timeout`.
///
/// Why: a client can open a connection and send its headers a byte at a time; without a
/// deadline each such connection is held forever, and a thousand of them hold the server's
/// connection slots. Between requests of a kept-alive connection the idle timeout applies
/// instead (it also closes a connection that sends nothing). Once the first head is read this
/// handler removes itself: it costs nothing per request.
final class HeaderTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  let timeout: TimeAmount
  private var timer: Scheduled<Void>?

  init(timeout: TimeAmount) { self.timeout = timeout }

  func handlerAdded(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    timer = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data), let timer {
      timer.cancel()
      self.timer = nil
      context.fireChannelRead(data)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
      return
    }
    context.fireChannelRead(data)
  }
}

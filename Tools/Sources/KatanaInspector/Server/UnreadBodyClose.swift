import NIOCore
import NIOHTTPTypes

/// Closes a connection once a response has been written while its request's body is still
/// arriving. Hummingbird otherwise reads such a body to its end before the next request, so a
/// client that announced 2 GB and sends a byte now and then would hold the connection (and, being
/// busy, it is not idle either) for as long as it likes. The inspector reads no body
/// (``BodyRefusal``), so nothing is lost.
final class UnreadBodyClose: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Whether a request's head has arrived and its end not yet.
    private var readingRequest = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: readingRequest = true
        case .end: readingRequest = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), readingRequest else {
            context.write(data, promise: promise)
            return
        }
        context.writeAndFlush(data, promise: promise)
        context.close(promise: nil)
    }
}

import NIOCore
import NIOHTTP1

/// Answers a connection whose first request cannot be read as HTTP/1.1 (`400`, or `431` for a
/// header too long) and closes it. Until a first request is read whole, nothing else would:
/// the WebSocket upgrade handler waits for a request head and drops the decoder's error, which
/// left such a connection open, unanswered, for as long as the client kept it. It sits at the end
/// of the connection's pipeline as set up for the first request; once that request has gone past
/// it (to Hummingbird's HTTP handlers, which answer later errors themselves, or to an upgrade),
/// it only passes things on.
final class ParseErrorAnswer: ChannelInboundHandler, RemovableChannelHandler {
    /// Never read here: whatever arrives is passed on as it is.
    typealias InboundIn = Never
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether a request has gone past, so that someone after this handler answers.
    private var handedOn = false
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        handedOn = true
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !handedOn, let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let tooLong = parserError == .headerOverflow
        let body = context.channel.allocator.buffer(
            string: tooLong
                ? "The request's headers are longer than the inspector reads (80 KB).\n"
                : "The request could not be read as HTTP/1.1 (\(parserError)).\n"
        )
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        let status: HTTPResponseStatus = tooLong ? .requestHeaderFieldsTooLarge : .badRequest
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

import NIOCore

/// Closes a connection whose first request has not finished its head (request line and headers)
/// within the timeout, answering `408`: a client that sends part of a request and stops would
/// otherwise hold the connection for as long as it likes. It is the first handler of every
/// connection's pipeline, so it sees the bytes as they arrive, before the HTTP decoder (and before
/// the WebSocket upgrade handler, which holds a connection until a request head is whole). Later
/// requests on a kept-alive connection are bounded by the HTTP channel's idle timeout.
final class RequestHeadTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// What a connection that took too long is told before it is closed.
    static let answer = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// How much of the blank line that ends a head ("\r\n\r\n") the last bytes matched.
    private var matched = 0
    /// Whether anything but line ends has arrived (empty lines before a request line are skipped
    /// by the decoder, so they do not end a head).
    private var sawRequest = false
    private var headComplete = false

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !headComplete {
            scan(unwrapInboundIn(data))
            if headComplete { stop() }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard deadline == nil, !headComplete else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.deadline = nil
            guard !self.headComplete else { return }
            // Written from the front of the pipeline, straight to the socket: no request is being
            // answered, since none has arrived whole.
            let written = context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: Self.answer)))
            written.assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    private func stop() {
        deadline?.cancel()
        deadline = nil
    }

    /// Looks for the blank line that ends the head in `bytes`, carrying a partial match over.
    private func scan(_ bytes: ByteBuffer) {
        let ending: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        for byte in bytes.readableBytesView {
            if byte != 0x0D && byte != 0x0A { sawRequest = true }
            if byte == ending[matched] {
                matched += 1
            } else {
                matched = byte == ending[0] ? 1 : 0
            }
            if matched == ending.count {
                if sawRequest {
                    headComplete = true
                    return
                }
                matched = 0
            }
        }
    }
}

import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops the listening socket from accepting for a moment when the process is out of file
/// descriptors (or of memory for sockets), instead of retrying at once.
///
/// Why it is needed: when `accept` fails with `EMFILE`, NIO keeps the listening socket's read
/// pending (only a connection accepted clears it) and the socket registered for readability with
/// epoll, which keeps reporting it as readable while connections wait in the backlog; so the event
/// loop calls `accept` again at once, and fails again, taking a whole core until descriptors are
/// freed. NIO's own `AcceptBackoffHandler` only delays the next read it is asked for, and none is
/// asked for while that one is pending. Turning the socket's `autoRead` off takes it out of epoll's
/// set until `autoRead` is turned on again, after ``interval``.
final class AcceptPause: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// How long accepting stops each time: short enough that a descriptor freed is used soon, long
    /// enough that the failed retries cost nothing measurable.
    static let interval = TimeAmount.milliseconds(200)
    /// The `accept` errors that mean "not now", not "never".
    static let exhausted: Set<CInt> = [EMFILE, ENFILE, ENOBUFS, ENOMEM]

    private let logger: Logger
    private var resume: Scheduled<Void>?
    /// Whether the current shortage was reported; a connection accepted ends it.
    private var reported = false

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reported = false
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, Self.exhausted.contains(error.errnoCode) {
            pause(context, because: error)
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
    }

    private func pause(_ context: ChannelHandlerContext, because error: IOError) {
        guard resume == nil else { return }
        if !reported {
            reported = true
            let advice = "raise the process's file descriptor limit (ulimit -n), or lower maximumConnections (--max-connections)"
            logger.warning("the inspector cannot accept connections: \(error.description). It tries again every 0.2 s until some close; \(advice)")
        }
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        resume = context.eventLoop.assumeIsolated().scheduleTask(in: Self.interval) {
            self.resume = nil
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }
}

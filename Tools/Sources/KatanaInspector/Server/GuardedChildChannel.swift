import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP (and WebSocket upgrade) child channel, with the inspector's limits around
/// each connection: beyond ``OpenConnections/limit`` a connection is closed as soon as it is
/// accepted, and each one admitted starts with a ``RequestHeadTimeout`` and ends, until its first
/// request is read, with a ``ParseErrorAnswer``.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let connections: OpenConnections
    let requestHeadTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.admit() else {
            logger.debug("connection refused: \(connections.limit) are open, the most the inspector keeps")
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ConnectionRefused())
        }
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.release() }
        do {
            try channel.pipeline.syncOperations.addHandler(RequestHeadTimeout(timeout: requestHeadTimeout), position: .first)
        } catch {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(ParseErrorAnswer())
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        // The only message Hummingbird logs per connection above debug reports a connection that
        // closed before its first request was whole (as RequestHeadTimeout closes it): a client
        // decides when that happens, and could fill the log with it.
        var connectionLogger = logger
        connectionLogger.logLevel = .critical
        await inner.handle(value: value, logger: connectionLogger)
        // Hummingbird is done with the connection; when it ended without closing it (a WebSocket
        // upgrade that failed because a body followed the request's head), nothing else would.
        value.channel.close(promise: nil)
    }

    /// A connection beyond the limit, closed without being served.
    struct ConnectionRefused: Error {}
}

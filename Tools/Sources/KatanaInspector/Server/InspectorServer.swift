import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import KatanaRecording
import Logging
import NIOCore
import ServiceLifecycle

/// Serves the inspector's page and its API for one history: a recording file's, or a live store's
/// (see ``LiveInspector``).
///
/// ```swift
/// let server = try InspectorServer(recordingAt: "session.jsonl")
/// try await server.run { url in print("open \(url)") }
/// ```
public final class InspectorServer: Sendable {
    /// How it serves.
    public let configuration: InspectorConfiguration
    let source: HistorySource
    let page: PageFiles
    /// Live-stream connections not closed yet.
    private let liveConnections = Locked(0)
    /// All connections open, within `maximumConnections`.
    let connections: OpenConnections

    /// A server for the recording at `path`, read now: throws a ``RecordingError`` for a file
    /// that is missing, empty or not a recording, and ``InspectorError`` for a line that is too
    /// long or a configuration that is unsafe.
    public convenience init(recordingAt path: String, configuration: InspectorConfiguration = InspectorConfiguration()) throws {
        try configuration.validate()
        let history = try RecordingFileLoader.load(path: path, maximumLineLength: configuration.maximumLineLength)
        try self.init(source: HistorySource(history), configuration: configuration)
    }

    init(source: HistorySource, configuration: InspectorConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        self.source = source
        connections = OpenConnections(limit: configuration.maximumConnections)
        page = PageFiles.load()
    }

    /// How many pages' live-stream connections are open.
    var openLiveConnections: Int {
        liveConnections.withLock { $0 }
    }

    /// How many items the server has (for a live store, so far).
    public var itemCount: Int {
        source.history?.summary.count ?? 0
    }

    /// Serves until the task running it is cancelled (or, with `stopsOnSignals`, the process gets
    /// `SIGTERM` or `SIGINT`); calls `onServing` with the page's address once it listens.
    public func run(stopsOnSignals: Bool = false, onServing: @escaping @Sendable (URL) async -> Void = { _ in }) async throws {
        let router = Router(context: InspectorRequestContext.self)
        router.add(middleware: BodyRefusal())
        router.add(middleware: OriginCheck(loopbackOnly: configuration.token == nil))
        router.add(middleware: TokenCheck(token: configuration.token))
        addRoutes(to: router)
        // The process's own log handler, behind one that escapes what a client may have put in a message.
        var logger = Logger(label: "katana-inspector") { label in EscapingLogHandler(wrapping: Logger(label: label).handler) }
        logger.logLevel = .warning
        let configuration = configuration
        let serverLogger = logger
        let app = Application(
            router: router,
            server: serverBuilder(webSocketRouter: router),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                await Self.pauseAcceptingWhenOutOfDescriptors(on: channel, logger: serverLogger)
                let port = channel.localAddress?.port ?? configuration.port
                await onServing(Self.url(host: configuration.host, port: port, token: configuration.token))
            },
            logger: logger
        )
        // Cancelling the task that runs this shuts the server down gracefully: the server runs in a
        // task of its own, which the cancellation does not reach, and is asked to stop instead.
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [], logger: logger)
        let serving = Task { try await group.run() }
        do {
            try await withTaskCancellationHandler {
                try await serving.value
            } onCancel: {
                Task { await group.triggerGracefulShutdown() }
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw InspectorError.addressInUse(host: configuration.host, port: configuration.port)
        }
    }

    /// HTTP/1.1 with the live stream's WebSocket upgrade, each connection within the
    /// configuration's limits (``GuardedChildChannel``): its first request's head within
    /// `requestHeadTimeout`, idle between requests at most `idleTimeout`, at most
    /// `maximumConnections` open, and closed rather than read on when a body it sent is not read
    /// (``UnreadBodyClose``).
    private func serverBuilder(webSocketRouter: Router<InspectorRequestContext>) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(additionalChannelHandlers: [UnreadBodyClose()], idleTimeout: TimeAmount(configuration.idleTimeout))
        )
        let connections = connections
        let requestHeadTimeout = TimeAmount(configuration.requestHeadTimeout)
        return HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
                connections: connections,
                requestHeadTimeout: requestHeadTimeout
            )
        }
    }

    /// Puts an ``AcceptPause`` on the listening socket `channel`.
    private static func pauseAcceptingWhenOutOfDescriptors(on channel: any Channel, logger: Logger) async {
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(AcceptPause(logger: logger), position: .first)
            }.get()
        } catch {
            logger.warning("the inspector could not watch for running out of file descriptors: \(error)")
        }
    }

    /// The page's address on `host` and `port`, with the token when there is one.
    static func url(host: String, port: Int, token: String?) -> URL {
        let query = token.map { "?token=\($0)" } ?? ""
        return URL(string: "http://\(authority(host: host, port: port))/\(query)") ?? URL(fileURLWithPath: "/")
    }

    /// `host:port`, an IPv6 address in brackets.
    static func authority(host: String, port: Int) -> String {
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(shownHost):\(port)"
    }

    private func addRoutes(to router: Router<InspectorRequestContext>) {
        router.get("/") { _, _ in self.pageFile("index.html") }
        router.get("/:file") { _, context in self.pageFile(context.parameters.get("file") ?? "") }
        router.get("/api/summary") { _, _ in
            guard let history = self.source.history else { return Self.notStarted() }
            return Self.json(InspectorAPI.summary(history.summary))
        }
        router.get("/api/items") { request, _ in
            guard let history = self.source.history else { return Self.notStarted() }
            let query = request.uri.queryParameters
            guard let from = Self.number(query["from"], default: 1), let limit = Self.number(query["limit"], default: UInt64(InspectorAPI.defaultItemsPerRequest)) else {
                return Self.json(InspectorAPI.error("from and limit must be whole numbers, e.g. /api/items?from=1&limit=1000"), status: .badRequest)
            }
            // The cursor is taken before the rows: an end that comes after it reaches the page on
            // the live stream, whether or not its row carries it.
            let endCursor = history.endCursor
            let (summary, items) = history.items(from: from, limit: Int(min(limit, UInt64(InspectorAPI.maximumItemsPerRequest))))
            return Self.json(InspectorAPI.rows(items, ends: history.ends(of: items), summary: summary, endCursor: endCursor))
        }
        router.get("/api/items/:position") { _, context in
            guard let history = self.source.history else { return Self.notStarted() }
            guard let position = context.parameters.get("position").flatMap(UInt64.init) else {
                return Self.json(InspectorAPI.error("an item's position is a whole number from 1, e.g. /api/items/12"), status: .badRequest)
            }
            guard let detail = history.detail(at: position) else {
                let summary = history.summary
                let range = summary.count == 0 ? "has no items yet" : "has items \(summary.firstPosition) to \(summary.lastPosition)"
                return Self.json(InspectorAPI.error("no item at position \(position): the recording \(range)"), status: .notFound)
            }
            return Self.json(InspectorAPI.detail(detail, end: history.end(ofSequence: detail.item.sequence)))
        }
        router.ws("/api/live") { request, _ in
            // Parsed before the upgrade so that a bad request gets an answer it can read.
            let query = request.uri.queryParameters
            return Self.number(query["after"], default: 0) == nil || Self.number(query["ends"], default: 0) == nil ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let after = Self.number(context.request.uri.queryParameters["after"], default: 0) ?? 0
            let endsAfter = Self.number(context.request.uri.queryParameters["ends"], default: 0) ?? 0
            let connection = context.requestContext.channel
            self.liveConnections.withLock { $0 += 1 }
            connection.closeFuture.whenComplete { _ in self.liveConnections.withLock { $0 -= 1 } }
            let updates = LiveUpdates(source: self.source, timeout: self.configuration.slowClientTimeout) {
                connection.close(promise: nil)
            }
            try await updates.send(after: after, endsAfter: endsAfter, inbound: inbound, to: outbound)
        }
    }

    private func pageFile(_ name: String) -> Response {
        guard let file = page.files[name] else {
            if let problem = page.problem {
                return Response(
                    status: .internalServerError, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: problem))
                )
            }
            return Self.json(InspectorAPI.error("the inspector has no page file named \(name)"), status: .notFound)
        }
        return Response(
            status: .ok,
            headers: [.contentType: file.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: file.body))
        )
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.jsonText))
        )
    }

    private static func notStarted() -> Response {
        json(InspectorAPI.error("the live store has not started yet: its recorder begins when the store starts"), status: .serviceUnavailable)
    }

    /// A query's whole number, `fallback` when it is absent; nil when it is not a number.
    static func number(_ text: Substring?, default fallback: UInt64) -> UInt64? {
        guard let text else { return fallback }
        return UInt64(text)
    }
}

import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The context of each request the inspector answers: Hummingbird's WebSocket request context,
/// plus the connection it came on, so that the live stream can close the connection of a page too
/// slow to take its messages (a write to a full socket waits, and would keep the connection open
/// until its pings time out).
struct InspectorRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}

/// Where and how the inspector serves its page.
public struct InspectorConfiguration: Sendable {
    /// The address it listens on: the loopback address unless told otherwise. Any other address
    /// needs a ``token``.
    public var host: String
    /// The port; 0 takes any free one (the URL the inspector reports says which).
    public var port: Int
    /// A secret every request must carry (`?token=` in the page's URL, or an `Authorization:
    /// Bearer` header); required on any address but the loopback one. It is 16 to 256 letters,
    /// digits, '-', '_' or '.'; ``generatedToken()`` makes one.
    public var token: String?
    /// The longest line of a recording the inspector reads, in bytes.
    public var maximumLineLength: Int
    /// The most items a live inspector keeps; the oldest are let go beyond it.
    public var liveItemLimit: Int
    /// About how many bytes of memory a live inspector's history may take (each item's encoding
    /// and what it changed, and the whole states it keeps to rebuild the others); beyond it the
    /// oldest items are let go, down to three quarters of it, and the page lets them go too. What
    /// the history holds grows with what the items change, not with the state's size; the state as
    /// it is now is held beside it (see docs/Inspecting.md, "What an item costs").
    public var liveHistoryByteLimit: Int
    /// About how many bytes a live inspector's items may take while they wait to be encoded (each
    /// holds the state after it) and handed to its history; beyond it newer items are dropped and
    /// the page shows a gap (see ``RecordingStream/bufferByteLimit``).
    public var liveBufferByteLimit: Int
    /// How long a page's live stream may take to accept a message before it is dropped.
    public var slowClientTimeout: Duration
    /// How long a new connection may take to send its first request's head (the request line and
    /// headers); it is answered `408` and closed after that, so that clients that send part of a
    /// request and stop cannot hold connections open.
    public var requestHeadTimeout: Duration
    /// How long a connection kept open after a response may wait for its next request before it
    /// is closed (a live stream's WebSocket is not idle in this sense: `slowClientTimeout` is its
    /// bound).
    public var idleTimeout: Duration
    /// The most connections open at once; a connection beyond it is closed as soon as it is
    /// accepted. Keep it below the process's file descriptor limit (`ulimit -n`), which a service
    /// shares with the inspector: when descriptors run out anyway, the inspector stops accepting
    /// for a moment at a time instead of retrying at once.
    public var maximumConnections: Int

    /// A configuration; by default the loopback address, port 7766, no token, a live history of at
    /// most 200,000 items and 256 MiB, 64 MiB of items waiting for it, 5 seconds for a request's
    /// head, 30 seconds idle, 128 connections.
    public init(
        host: String = "127.0.0.1", port: Int = 7766, token: String? = nil, maximumLineLength: Int = 64 << 20,
        liveItemLimit: Int = 200_000, liveHistoryByteLimit: Int = 256 << 20, liveBufferByteLimit: Int = 64 << 20,
        slowClientTimeout: Duration = .seconds(10),
        requestHeadTimeout: Duration = .seconds(5), idleTimeout: Duration = .seconds(30), maximumConnections: Int = 128
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.maximumLineLength = maximumLineLength
        self.liveItemLimit = liveItemLimit
        self.liveHistoryByteLimit = liveHistoryByteLimit
        self.liveBufferByteLimit = liveBufferByteLimit
        self.slowClientTimeout = slowClientTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }

    /// The fewest characters a token has: enough that it cannot be guessed by trying.
    static let shortestToken = 16

    /// A new random token for ``token``: 32 letters, digits, '-' and '_' (192 bits) from the
    /// system's secure random source (`--token auto` on the command line).
    public static func generatedToken() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String((0 ..< 32).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &generator)] })
    }

    /// Whether ``host`` is reachable from this machine only.
    var isLoopback: Bool {
        LoopbackAddress.isLoopback(listenAddress: host)
    }

    /// Throws when serving with this configuration would be unsafe or cannot work.
    func validate() throws {
        guard (0 ... 65_535).contains(port) else { throw InspectorError.invalidPort(port) }
        for (name, value) in [("requestHeadTimeout (--head-timeout)", requestHeadTimeout), ("idleTimeout (--idle-timeout)", idleTimeout)]
        where value <= .zero {
            throw InspectorError.invalidSetting(name: name, value: "\(value)", expected: "a time above zero, e.g. 5 seconds")
        }
        guard maximumConnections >= 1 else {
            throw InspectorError.invalidSetting(
                name: "maximumConnections (--max-connections)", value: "\(maximumConnections)", expected: "at least 1, e.g. 128"
            )
        }
        if let token {
            let allowed = token.unicodeScalars.allSatisfy {
                ("a" ... "z").contains($0) || ("A" ... "Z").contains($0) || ("0" ... "9").contains($0) || "-_.".unicodeScalars.contains($0)
            }
            guard allowed, (Self.shortestToken ... 256).contains(token.count) else { throw InspectorError.invalidToken }
        } else if !isLoopback {
            throw InspectorError.tokenRequired(host: host)
        }
    }
}

/// Where and how the inspector serves its page.
public struct InspectorConfiguration: Sendable {
    /// The address it listens on: the loopback address unless told otherwise. Any other address
    /// needs a ``token``.
    public var host: String
    /// The port; 0 takes any free one (the URL the inspector reports says which).
    public var port: Int
    /// A secret every request must carry (`?token=` in the page's URL, or an `Authorization:
    /// Bearer` header); required on any address but the loopback one.
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

    /// A configuration; by default the loopback address, port 7766, no token, a live history of at
    /// most 200,000 items and 256 MiB, and 64 MiB of items waiting for it.
    public init(
        host: String = "127.0.0.1", port: Int = 7766, token: String? = nil, maximumLineLength: Int = 64 << 20,
        liveItemLimit: Int = 200_000, liveHistoryByteLimit: Int = 256 << 20, liveBufferByteLimit: Int = 64 << 20,
        slowClientTimeout: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.maximumLineLength = maximumLineLength
        self.liveItemLimit = liveItemLimit
        self.liveHistoryByteLimit = liveHistoryByteLimit
        self.liveBufferByteLimit = liveBufferByteLimit
        self.slowClientTimeout = slowClientTimeout
    }

    /// Whether ``host`` is reachable from this machine only.
    var isLoopback: Bool {
        OriginCheck.isLoopback(host)
    }

    /// Throws when serving with this configuration would be unsafe or cannot work.
    func validate() throws {
        guard (0 ... 65_535).contains(port) else { throw InspectorError.invalidPort(port) }
        if let token {
            let allowed = token.unicodeScalars.allSatisfy {
                ("a" ... "z").contains($0) || ("A" ... "Z").contains($0) || ("0" ... "9").contains($0) || "-_.".unicodeScalars.contains($0)
            }
            guard allowed, (1 ... 256).contains(token.count) else { throw InspectorError.invalidToken }
        } else if !isLoopback {
            throw InspectorError.tokenRequired(host: host)
        }
    }
}

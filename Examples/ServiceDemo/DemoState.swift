import Katana

/// Everything the demo service knows.
struct DemoState: State, Codable {
    var configuration: ServiceConfiguration?
    var ticks = 0
    var reloads = 0
    /// The last search whose result landed (an earlier search cancelled by a newer one never lands).
    var search: SearchResult?
}

/// What a search found.
struct SearchResult: Equatable, Sendable, Codable {
    let query: String
    let matches: [String]
}

import Katana

/// Everything the demo service knows.
struct DemoState: State {
    /// Where the service is in its life.
    enum Status: String, Sendable {
        case starting, running, stopping, stopped
    }

    var configuration: ServiceConfiguration?
    var ticks = 0
    var reloads = 0
    var status = Status.starting
}

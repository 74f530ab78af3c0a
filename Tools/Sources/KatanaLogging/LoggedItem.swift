import Katana

/// How the store dealt with an item, as a log line says it.
enum LoggedOutcome: String {
    /// Passed on to the store (by this interceptor's `next`).
    case handled
    /// Not passed on by a later interceptor, which did not throw.
    case blocked
    /// A later interceptor threw before passing the item on.
    case rejected
}

/// What kind of item a line is about, by the protocols the store checks.
enum LoggedKind: String {
    /// A state updater: applied on the store's queue.
    case updater
    /// A synchronous (or returning) side effect: run on a worker.
    case sideEffect
    /// An `AsyncSideEffect`: run as a task.
    case asyncSideEffect
    /// Neither, or both an updater and a side effect: the store rejects it.
    case other

    init(of item: any Dispatchable) {
        let isSideEffect = item is any AnySideEffect
        if item is any AnyStateUpdater {
            self = isSideEffect ? .other : .updater
        } else if item is any AsyncSideEffect {
            self = .asyncSideEffect
        } else {
            self = isSideEffect ? .sideEffect : .other
        }
    }
}

/// `duration` in seconds with six decimals ("0.000123"), rounded to the nearest microsecond;
/// written by hand to stay away from Foundation's formatters on the store's queue.
func secondsWithMicroseconds(_ duration: Duration) -> String {
    let (wholeSeconds, attoseconds) = duration.components
    guard wholeSeconds >= 0, attoseconds >= 0 else { return "0.000000" }
    var seconds = wholeSeconds
    var microseconds = (attoseconds + 500_000_000_000) / 1_000_000_000_000
    if microseconds == 1_000_000 {
        seconds += 1
        microseconds = 0
    }
    let fraction = String(microseconds)
    return "\(seconds)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}

/// Where the server finds its history: given at once for a file, or once a live store has started.
final class HistorySource: Sendable {
    private let current: Locked<InspectorHistory?>

    init(_ history: InspectorHistory?) {
        current = Locked(history)
    }

    /// The history, once there is one.
    var history: InspectorHistory? {
        current.withLock { $0 }
    }

    /// Sets the history (a live store started).
    func set(_ history: InspectorHistory) {
        current.withLock { $0 = history }
    }
}

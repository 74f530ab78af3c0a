/// The inspector's connections open at once, against its ``InspectorConfiguration/maximumConnections``:
/// shared by the connections' event loops, so behind a lock.
final class OpenConnections: Sendable {
    /// The most connections open at once.
    let limit: Int
    private let count = Locked(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// How many are open.
    var current: Int {
        count.withLock { $0 }
    }

    /// Counts a new connection in and returns true, or returns false when the limit is reached.
    func admit() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Counts an admitted connection out.
    func release() {
        count.withLock { $0 -= 1 }
    }
}

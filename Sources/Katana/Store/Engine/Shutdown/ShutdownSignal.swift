/// How far a store's shutdown has gone, as the drainer sees it: read without a lock before and
/// after each item (one atomic load), changed only by the shutdown, and only forward.
///
/// The drainer takes up to a segment of the inbox at a time; this is how a shutdown reaches the
/// items of a batch the drainer holds: once it cancels, each item the drainer has not begun is
/// rejected instead of handled, and the shutdown waits for the one being handled.
final class ShutdownSignal: Sendable {
    /// Where the shutdown is.
    enum Phase: UInt64, Comparable {
        /// No shutdown: items are handled, and not counted.
        case running = 0
        /// A shutdown has begun: items are handled and counted.
        case counting = 1
        /// The shutdown cancels what is left: items the drainer has not begun are rejected.
        case cancelling = 2

        static func < (lhs: Phase, rhs: Phase) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    private let word = AtomicWord(Phase.running.rawValue)

    /// The current phase.
    @inline(__always)
    var phase: Phase {
        Phase(rawValue: word.load()) ?? .cancelling
    }

    /// Moves to `phase`, if it is further than the current one (only the shutdown calls this).
    func advance(to phase: Phase) {
        if phase > self.phase {
            word.store(phase.rawValue)
        }
    }
}

/// What the drainer counts for a shutdown: the items it handled, and those it rejected, from the
/// moment it saw the shutdown begin.
struct DrainerShutdownCounts: Equatable {
    var handled = 0
    var cancelled = 0
}

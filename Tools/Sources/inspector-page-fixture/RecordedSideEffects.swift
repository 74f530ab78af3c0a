import Foundation
import KatanaRecording

/// A recording sink beside the real one that counts what the recorder has recorded: the items, and
/// the side effects that have not ended yet. A session waits on it where it must not guess: a
/// search that a newer one cancels must have been recorded first (one cancelled before its
/// interceptors ran has neither an item nor an end), and a recording is closed once every side
/// effect's end is in it.
// @unchecked: `seen` is only read or written with `lock` held.
final class RecordedSideEffects: RecordingSink, @unchecked Sendable {
    typealias StateType = TodoState

    private struct Seen {
        var items = 0
        /// Side effects recorded as handled whose end has not come.
        var running: Set<UInt64> = []
        /// Ends that came before their item (a synchronous side effect's).
        var early: Set<UInt64> = []
    }

    private let lock = NSLock()
    private var seen = Seen()

    func begin(stateType: String, initialState: TodoState) {}

    func append(_ item: RecordedItem<TodoState>) {
        lock.withLock {
            seen.items += 1
            guard item.kind == .sideEffect, case .handled = item.outcome else { return }
            if seen.early.remove(item.sequence) == nil {
                seen.running.insert(item.sequence)
            }
        }
    }

    func append(_ end: RecordedEnd) {
        lock.withLock {
            if seen.running.remove(end.sequence) == nil {
                seen.early.insert(end.sequence)
            }
        }
    }

    /// Items recorded so far.
    var itemCount: Int {
        lock.withLock { seen.items }
    }

    /// Waits until at least `items` items are recorded and, with `allEnded`, every side effect
    /// recorded has ended; throws after `timeout`.
    func wait(_ what: String, items: Int, allEnded: Bool = false, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !lock.withLock({ seen.items >= items && (!allEnded || seen.running.isEmpty) }) {
            guard ContinuousClock.now < deadline else { throw FixtureTimeout(what: what) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// A wait of the fixture's that ran out of time.
struct FixtureTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String {
        "inspector-page-fixture: timed out waiting for \(what)"
    }
}

/// A run of consecutive state changes, on its way from the drainer to the listeners.
///
/// `states` holds the state before the run's first change, then the state after each change, so
/// change `i` (from 1) goes from `states[i - 1]` to `states[i]`; `promises[i - 1]` is the promise
/// that change settles once every listener has heard it (nil when nobody waits for it there), one
/// that ``PromiseHandle/acceptsDone``.
struct ChangeRun<S: State> {
    var states: [S]
    var promises: [PromiseHandle?]
    /// Whether this is the ready store's call with its initial state (Katana 3.x's, with
    /// `callsListenersWhenReady`), which `addListener` listeners hear and `stateUpdates` do not.
    var isReadyCall = false

    /// The number of changes in the run.
    var changeCount: Int {
        max(0, states.count - 1)
    }

    /// Empties the run, keeping its buffers for the next one.
    mutating func empty() {
        states.removeAll(keepingCapacity: true)
        promises.removeAll(keepingCapacity: true)
        isReadyCall = false
    }

    /// Takes the promises still to settle out of the run (their changes stay for the listeners).
    mutating func takePromises() -> [PromiseHandle] {
        let taken = promises.compactMap { $0 }
        if !taken.isEmpty {
            for index in promises.indices {
                promises[index] = nil
            }
        }
        return taken
    }
}

/// A run of consecutive state changes, on its way from the drainer to the listeners.
///
/// `states` holds the state before the run's first change, then the state after each change, so
/// change `i` (from 1) goes from `states[i - 1]` to `states[i]`; `dispatches[i - 1]` is the
/// dispatch whose promise that change settles once every listener has heard it (nil when nobody
/// waits for it there).
struct ChangeRun<S: State> {
    var states: [S]
    var dispatches: [Envelope?]

    /// The number of changes in the run.
    var changeCount: Int {
        max(0, states.count - 1)
    }

    /// Empties the run, keeping its buffers for the next one.
    mutating func empty() {
        states.removeAll(keepingCapacity: true)
        dispatches.removeAll(keepingCapacity: true)
    }

    /// Takes the dispatches whose promises are still to settle out of the run (their changes stay
    /// for the listeners).
    mutating func takeDispatches() -> [Envelope] {
        let taken = dispatches.compactMap { $0 }
        if !taken.isEmpty {
            for index in dispatches.indices {
                dispatches[index] = nil
            }
        }
        return taken
    }
}

/// The state changes a store records for its listeners, one state per change.
///
/// Changes are kept as runs: arrays of consecutive states, where the first is the state before the
/// run's first change and each following one is the state after the next change, so listener `i`
/// of a run gets `(states[i - 1], states[i])`. Keeping each state once (instead of an `(old, new)`
/// pair per change) halves what a burst of changes holds while the listeners catch up. Runs have a
/// bounded length and their buffers go back and forth between the store's queue and the listener
/// delivery, so a long burst reuses memory instead of growing one array (and faulting in fresh pages).
///
/// Used only by the current drainer (see `StoreEngine`).
struct StateChangeLog<S: State> {
    /// The run being recorded; empty, or its first state followed by one state per change.
    private var run: [S] = []
    /// Runs closed and waiting to be published.
    private var closed: [[S]] = []
    /// Emptied run buffers, for new runs.
    private var spare: [[S]] = []
    /// Whether anything was recorded since the last `takeRuns()`.
    private(set) var hasChanges = false

    /// The most changes one run holds before the next one starts.
    static var runLength: Int { 128 }

    /// Records a change from `old` to `new`; `old` is only read when the change starts a new run,
    /// which it does unless `continuesRun`: the store's state before this change is the last state
    /// recorded (nothing changed it unrecorded since).
    ///
    /// The caller keeps that flag (see `StoreEngine`): in the unspecialised generic code of the
    /// store, touching this struct at all costs a metadata look-up, which the hot path must not pay.
    mutating func record(old: @autoclosure () -> S, new: S, continuesRun: Bool) {
        if !continuesRun {
            closeRun()
            run = takeSpare()
            run.append(old())
        } else if run.count > Self.runLength {
            let last = run[run.count - 1]
            closeRun()
            run = takeSpare()
            run.append(last)
        }
        run.append(new)
        hasChanges = true
    }

    /// Hands over every recorded run for publishing; with `continuesRun`, the current state stays as
    /// the start of the next run, so changes keep continuing across batches.
    mutating func takeRuns(continuesRun: Bool) -> [[S]] {
        if continuesRun, run.count > 1 {
            let last = run[run.count - 1]
            closeRun()
            run = takeSpare()
            run.append(last)
        } else if !continuesRun {
            closeRun()
        }
        hasChanges = false
        var runs: [[S]] = []
        swap(&runs, &closed)
        return runs
    }

    /// Takes emptied buffers back for reuse (keeping at most `maximumSpare` of them).
    mutating func addSpare(_ buffers: inout [[S]], keepingAtMost maximumSpare: Int) {
        let room = max(0, maximumSpare - spare.count)
        spare.append(contentsOf: buffers.prefix(room))
        buffers.removeAll()
    }

    private mutating func closeRun() {
        if run.count > 1 {
            closed.append(run)
            run = []
        } else if run.capacity > 0 {
            run.removeAll(keepingCapacity: true)
            spare.append(run)
            run = []
        }
    }

    private mutating func takeSpare() -> [S] {
        spare.popLast() ?? []
    }
}

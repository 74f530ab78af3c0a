/// The state changes a store keeps for its audience, one state per change, each with the promise
/// it settles once the listeners have heard it.
///
/// Changes are kept as runs (see ``ChangeRun``): each change's old state is the previous change's
/// new one, so a run keeps each state once instead of an `(old, new)` pair per change, which halves
/// what a burst holds while the listeners catch up. Runs have a bounded length, and their buffers
/// go back and forth between the drainer and the delivery, so a long burst reuses memory instead
/// of growing one array (and faulting in fresh pages).
///
/// Owned by the drainer (see ``Drainer``).
struct StateChangeLog<S: State> {
    /// The run being recorded: empty, or its first state followed by one state per change.
    private var run = ChangeRun<S>(states: [], promises: [])
    /// Runs closed and waiting to be published.
    private var closed: [ChangeRun<S>] = []
    /// Emptied runs, for new runs.
    private var spare: [ChangeRun<S>] = []
    /// Whether anything was recorded since the last `takeRuns()`.
    private(set) var hasChanges = false

    /// The most changes one run holds before the next one starts.
    static var runLength: Int { 128 }

    /// Records a change from `old` to `new`, which settles `promise` once the listeners have heard
    /// it; `old` is only read when the change starts a new run, which it does unless
    /// `continuesRun`: the state before this change is the last state recorded (nothing changed it
    /// unrecorded since).
    mutating func record(old: @autoclosure () -> S, new: S, continuesRun: Bool, settling promise: PromiseHandle?) {
        if !continuesRun {
            closeRun()
            run = takeSpare()
            run.states.append(old())
        } else if run.states.count > Self.runLength {
            let last = run.states[run.states.count - 1]
            closeRun()
            run = takeSpare()
            run.states.append(last)
        }
        run.states.append(new)
        run.promises.append(promise)
        hasChanges = true
    }

    /// Hands over every recorded run for publishing; with `continuesRun`, the current state stays as
    /// the start of the next run, so changes keep continuing across batches.
    mutating func takeRuns(continuesRun: Bool) -> [ChangeRun<S>] {
        if continuesRun, run.states.count > 1 {
            let last = run.states[run.states.count - 1]
            closeRun()
            run = takeSpare()
            run.states.append(last)
        } else if !continuesRun {
            closeRun()
        }
        hasChanges = false
        var runs: [ChangeRun<S>] = []
        swap(&runs, &closed)
        return runs
    }

    /// Takes emptied runs back for reuse (keeping at most `maximumSpare` of them).
    mutating func addSpare(_ runs: inout [ChangeRun<S>], keepingAtMost maximumSpare: Int) {
        let room = max(0, maximumSpare - spare.count)
        spare.append(contentsOf: runs.prefix(room))
        runs.removeAll()
    }

    private mutating func closeRun() {
        if run.states.count > 1 {
            closed.append(run)
        } else if run.states.capacity > 0 {
            run.empty()
            spare.append(run)
        }
        run = ChangeRun(states: [], promises: [])
    }

    private mutating func takeSpare() -> ChangeRun<S> {
        spare.popLast() ?? ChangeRun(states: [], promises: [])
    }
}

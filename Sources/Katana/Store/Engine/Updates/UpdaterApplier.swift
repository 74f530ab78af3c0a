/// Applies state updaters to the store's state in place, calls their follow-ups, and keeps each
/// change for the store's audience together with the promise it settles.
///
/// Owned by the drainer (see ``Drainer``), so it runs on whichever thread holds the right to drain,
/// one updater at a time, in dispatch order. (Why a class: docs/PERFORMANCE.md, "Updaters: back-to-back".)
final class UpdaterApplier<S: State> {
    private var log = StateChangeLog<S>()
    /// Whether the state is still the last one `log` recorded, so the next change continues its run
    /// without a copy of the state before it. (Why it is kept out of the log: docs/PERFORMANCE.md,
    /// "Updaters: back-to-back".)
    private var logContinues = false
    /// Whether `log` has recorded a change since the last ``takeChanges()``: a batch of side effects
    /// alone then looks at a plain flag, not into the log (docs/PERFORMANCE.md, "Side effects:
    /// no-op AsyncSideEffect").
    private var logHasChanges = false
    /// Puts an item's captured context back around its follow-up, when the store has a dispatch
    /// context.
    private let dispatchContext: DispatchContext?

    init(dispatchContext: DispatchContext?) {
        self.dispatchContext = dispatchContext
    }

    /// Applies `item`, a state updater, to the state in `cell`, then calls its follow-up (if it has
    /// one) with the states around the update, on this thread, before anything else is handled.
    ///
    /// In a store with a dispatch context, the follow-up runs inside the item's, which its promise
    /// carries.
    ///
    /// Returns how to settle `promise`, unless listeners wait for the change (``Audience/listeners``):
    /// then it goes with the change, and the delivery settles it once every listener has heard it.
    func apply(
        _ item: any Dispatchable,
        settling promise: PromiseHandle?,
        with updater: ItemKind.Updater,
        to cell: StateCell<S>,
        for audience: Audience,
        context: any AnySideEffectContext,
        tracer: SignpostLogger?
    ) -> Settlement? {
        // A promise that needs the item to settle (an updater replacing a returning side effect,
        // whose promise it cannot fulfil) settles at once, with the error.
        let heldForListeners = audience.promisesWaitForListeners && promise?.acceptsDone == true
        let failure: KatanaError? = SignpostLogger.trace(tracer, item, kind: .stateUpdater) {
            if audience.keepsChanges || updater.followUp != nil {
                return applyKeepingChange(
                    item, with: updater, to: cell, for: audience,
                    settling: heldForListeners ? promise : nil, context: context,
                    followUpIn: updater.followUp == nil || dispatchContext == nil ? nil : promise?.dispatchContext
                )
            }
            // Nobody holds the state before the update, so it changes the only copy in place.
            if logContinues {
                logContinues = false
            }
            return cell.apply(updater.apply, item)
        }
        if let failure {
            return .failure(failure)
        }
        return heldForListeners ? nil : .done
    }

    /// The changes recorded since the last call, in runs, for the listeners; nil when there are none.
    func takeChanges() -> [ChangeRun<S>]? {
        guard logHasChanges, log.hasChanges else { return nil }
        logHasChanges = false
        return log.takeRuns(continuesRun: logContinues)
    }

    /// Takes emptied runs back from the delivery, for reuse.
    func reuse(_ runs: inout [ChangeRun<S>], keepingAtMost maximum: Int) {
        log.addSpare(&runs, keepingAtMost: maximum)
    }

    private func applyKeepingChange(
        _ item: any Dispatchable,
        with updater: ItemKind.Updater,
        to cell: StateCell<S>,
        for audience: Audience,
        settling promise: PromiseHandle?,
        context: any AnySideEffectContext,
        followUpIn followUpContext: CapturedContext?
    ) -> KatanaError? {
        if audience.keepsChanges, updater.followUp == nil, logContinues {
            // The state before this change is the last one recorded: no copy of it.
            return cell.update { state in
                let failure = Unsafe.withStatePointer(&state) { updater.apply(item, $0) }
                if failure == nil {
                    log.record(old: state, new: state, continuesRun: true, settling: promise)
                    logHasChanges = true
                }
                return failure
            }
        }
        var change: (old: S, new: S)?
        let failure: KatanaError? = cell.update { state in
            let old = state
            let failure = Unsafe.withStatePointer(&state) { updater.apply(item, $0) }
            if failure == nil {
                change = (old, state)
            }
            return failure
        }
        guard let change else { return failure }
        if audience.keepsChanges {
            log.record(old: change.old, new: change.new, continuesRun: logContinues, settling: promise)
            logHasChanges = true
        }
        logContinues = audience.keepsChanges
        if let followUp = updater.followUp {
            guard let dispatchContext, followUpContext != nil else {
                followUp(item, change.old, change.new, context)
                return nil
            }
            let ran = dispatchContext.run(followUpContext) { followUp(item, change.old, change.new, context) }
            if !ran {
                return .dispatchContextNotRestored(item: typeName(of: item))
            }
        }
        return nil
    }
}

/// A side effect's body inside its item's dispatch context: the runner's paths for a store that has
/// one, apart from the side effects' own folder (see docs/Architecture.md, "Dispatch context").
extension SideEffectRunner {
    /// Runs a synchronous side effect's body here, inside its item's dispatch context when it
    /// carries one; returns its outcome, for its promise.
    func runBody(_ envelope: Envelope, with runner: ItemKind.SideEffectRunner) -> Settlement {
        if restoresContext, let dispatchContext, envelope.context != nil {
            return runBodyRestoring(envelope, with: runner, in: dispatchContext)
        }
        return runBodyHere(envelope, with: runner)
    }

    /// ``runBody(_:with:)`` for an item that carries a dispatch context. Apart, so that a store
    /// without one keeps no closure for it.
    @inline(never)
    func runBodyRestoring(_ envelope: Envelope, with runner: ItemKind.SideEffectRunner, in dispatchContext: DispatchContext) -> Settlement {
        var settlement = Settlement.failure(KatanaError.dispatchContextNotRestored(item: typeName(of: envelope.item)))
        _ = dispatchContext.run(envelope.context) {
            settlement = runBodyHere(envelope, with: runner)
        }
        return settlement
    }

    /// Runs a side effect's body, its whole task, inside its item's dispatch context (restored
    /// once, so it is in place after every suspension of the body). Apart, so that a task without
    /// a context keeps no closure in its frame.
    @inline(never)
    nonisolated(nonsending) static func runRestoring(
        _ job: Job,
        with runner: ItemKind.AsyncSideEffectRunner,
        in dispatchContext: DispatchContext
    ) async -> Result<any Sendable, any Error> {
        var outcome: Result<any Sendable, any Error> = .failure(KatanaError.dispatchContextNotRestored(item: typeName(of: job.envelope.item)))
        _ = await dispatchContext.run(job.envelope.context) {
            if let logger = SignpostLogger.active(job.taskRunner?.tracer) {
                outcome = await runTraced(job, with: runner, logger: logger)
            } else {
                do {
                    outcome = .success(try await runner.run(job.envelope.item, sequence: job.envelope.sequence))
                } catch {
                    outcome = .failure(error)
                }
            }
        }
        return outcome
    }
}

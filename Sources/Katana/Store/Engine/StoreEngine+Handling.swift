/// Handling one item once it is through the interceptors (or has none to go through): a state
/// updater applied in place, a side effect handed to the side-effect registry.
extension StoreEngine {
    /// Handles an item that has been through the interceptors (see ``InterceptorChain/Receiver``):
    /// a state updater as it is, anything else in an envelope of its own.
    func handlePassedOn(_ item: any Dispatchable, promise: PromiseHandle?, sequence: UInt64, with drainer: Drainer<S>) -> Settlement? {
        let entry = drainer.kinds.unretainedEntry(of: item, storeState: S.self)
        if let updater = Unsafe.borrow(entry, { $0.updater }) {
            return Unsafe.borrow(updater) { apply(item, settling: promise, with: $0, for: drainer.audience, with: drainer) }
        }
        let envelope = Envelope(item, promise: promise, skipsInterceptors: true, sequence: sequence)
        return Unsafe.borrow(entry) { handle(envelope, as: $0.kind, for: drainer.audience, with: drainer) }
    }

    /// Handles an item as what the kind cache says it is; returns how to settle its promise now,
    /// or nil when something else settles it.
    func handle(_ envelope: Envelope, as entry: ItemKindCache.Entry, for audience: Audience, with drainer: Drainer<S>) -> Settlement? {
        if let updater = entry.updater {
            // The common case, with the updater lent by the cache rather than copied out of the kind.
            return Unsafe.borrow(updater) { apply(envelope.item, settling: envelope.promise, with: $0, for: audience, with: drainer) }
        }
        return handle(envelope, as: entry.kind, for: audience, with: drainer)
    }

    /// Handles an item as what it is; returns how to settle its promise now, or nil when something
    /// else settles it (the listeners' delivery, a side-effect worker or task).
    func handle(_ envelope: Envelope, as kind: ItemKind, for audience: Audience, with drainer: Drainer<S>) -> Settlement? {
        switch kind {
        case .updater(let updater):
            return apply(envelope.item, settling: envelope.promise, with: updater, for: audience, with: drainer)
        case .sideEffect(let runner):
            // An interceptor's replacement for the item being handled: it takes that item's place.
            drainer.sideEffects.submit(envelope, running: runner)
        case .asyncSideEffect(let runner):
            drainer.sideEffects.submit(envelope, starting: runner)
        case .unsupported:
            countForShutdown(drainer)
            return .failure(KatanaError.unsupportedDispatchable(item: typeName(of: envelope.item)))
        case .ambiguous:
            countForShutdown(drainer)
            return .failure(KatanaError.ambiguousDispatchable(item: typeName(of: envelope.item)))
        }
        return nil
    }

    /// Applies a state updater; returns how to settle its promise (see ``UpdaterApplier``).
    private func apply(
        _ item: any Dispatchable, settling promise: PromiseHandle?, with updater: ItemKind.Updater,
        for audience: Audience, with drainer: Drainer<S>
    ) -> Settlement? {
        let settlement = drainer.updates.apply(
            item, settling: promise, with: updater, to: drainer.cell, for: audience, context: drainer.context, tracer: tracer
        )
        countForShutdown(drainer)
        return settlement
    }
}
